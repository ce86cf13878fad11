/**
 * Runtime-slot settings, read from the environment when the supervisor is created. Tests
 * override them with `runtimeSupervisor().configure({...})`.
 */

export interface RuntimeConfig {
  /** A slot with no call for this long is stopped (`PAPERCLIP_SLOT_IDLE_MS`, default 5 min). */
  idleMs: number;
  /** Live slots per company (`PAPERCLIP_SLOT_CAP_PER_COMPANY`, default 4). */
  capPerCompany: number;
  /** Live slots in this server process (`PAPERCLIP_SLOT_CAP_PER_HOST`, default 16). */
  capPerHost: number;
  /** SIGTERM → SIGKILL grace when stopping a slot's process group (`PAPERCLIP_SLOT_GRACE_MS`, 3 s). */
  graceMs: number;
  /** Spawn + MCP initialize must finish within this (`PAPERCLIP_SLOT_START_TIMEOUT_MS`, 60 s). */
  startTimeoutMs: number;
  /** First restart delay after a crash; doubles per recent crash (`PAPERCLIP_SLOT_BACKOFF_MS`, 500 ms). */
  backoffBaseMs: number;
  /** Upper bound of the restart delay (30 s). */
  backoffMaxMs: number;
  /** This many crashes within `crashWindowMs` suppress the slot until an admin restarts it. */
  crashLimit: number;
  crashWindowMs: number;
  /** What a deferred caller is told to wait when every slot is busy. */
  retryAfterMs: number;
  /** Largest single protocol message from a slot (`PAPERCLIP_SLOT_MAX_MESSAGE_BYTES`, 16 MiB). */
  maxMessageBytes: number;
  /** The stderr ring buffer: at most this many lines and bytes. */
  stderrMaxLines: number;
  stderrMaxBytes: number;
}

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) return fallback;
  return n;
}

export function runtimeConfigFromEnv(): RuntimeConfig {
  return {
    idleMs: intFromEnv("PAPERCLIP_SLOT_IDLE_MS", 5 * 60_000, 100, 24 * 3600_000),
    capPerCompany: intFromEnv("PAPERCLIP_SLOT_CAP_PER_COMPANY", 4, 0, 1000),
    capPerHost: intFromEnv("PAPERCLIP_SLOT_CAP_PER_HOST", 16, 0, 10_000),
    graceMs: intFromEnv("PAPERCLIP_SLOT_GRACE_MS", 3_000, 0, 120_000),
    startTimeoutMs: intFromEnv("PAPERCLIP_SLOT_START_TIMEOUT_MS", 60_000, 100, 600_000),
    backoffBaseMs: intFromEnv("PAPERCLIP_SLOT_BACKOFF_MS", 500, 0, 60_000),
    backoffMaxMs: 30_000,
    crashLimit: 3,
    crashWindowMs: 60_000,
    retryAfterMs: 1_000,
    maxMessageBytes: intFromEnv(
      "PAPERCLIP_SLOT_MAX_MESSAGE_BYTES",
      16 * 1024 * 1024,
      64 * 1024,
      256 * 1024 * 1024,
    ),
    stderrMaxLines: 200,
    stderrMaxBytes: 64 * 1024,
  };
}
