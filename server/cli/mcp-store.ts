/**
 * The CLI's credential store under `$PAPERCLIP_HOME/mcp/` (spec: "Headless device login and
 * stdio bridge"): one JSON file per bound resource, named by the SHA-256 of its canonical
 * URL; the directory 0700, the files 0600; every write is write-temp + fsync + rename, so a
 * reader sees the old file or the new one, never half of either. Refreshes are serialised
 * across processes by a lock file beside the credential file (`withFileLock`).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { paperclipHome } from "../config/home";
import { canonicalResource } from "../oauth/resource";

/** What one login stores. Tokens never leave this file (not in output, not in errors). */
export interface StoredCredentials {
  version: 1;
  /** The exact resource the tokens are bound to (RFC 8707 canonical form). */
  resource: string;
  issuer: string;
  tokenEndpoint: string;
  revocationEndpoint: string | null;
  deviceAuthorizationEndpoint: string;
  registrationEndpoint: string | null;
  clientId: string;
  /** Absent between a registration and the first completed login. */
  tokens?: {
    accessToken: string;
    refreshToken: string | null;
    /** Epoch milliseconds. */
    expiresAt: number;
    scope: string;
  };
  /** Who and where, from `paperclip_connection` after login (no secrets). */
  connection?: { user?: string; company?: string; companyId?: string; role?: string; manage?: string };
  updatedAt: string;
}

/** The RFC 8707 canonical form the server binds tokens to (null when not an http(s) URL). */
export const canonicalEndpoint = canonicalResource;

/** `$PAPERCLIP_HOME/mcp` (default `~/.paperclip/mcp`), created 0700 and kept 0700. */
export function credentialsDir(): string {
  const dir = path.join(paperclipHome(), "mcp");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask and ignored for an existing directory.
  chmodSync(dir, 0o700);
  return dir;
}

export function credentialsFile(resource: string): string {
  const name = createHash("sha256").update(resource).digest("hex").slice(0, 32);
  return path.join(credentialsDir(), `${name}.json`);
}

export function readCredentials(resource: string): StoredCredentials | null {
  let text: string;
  try {
    text = readFileSync(credentialsFile(resource), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const stored = JSON.parse(text) as StoredCredentials;
  // A file for another resource (a hash collision or a hand-copied file) is not ours.
  return stored.version === 1 && stored.resource === resource ? stored : null;
}

/** Writes `data` to `file` atomically: a 0600 temp file in the same directory, fsync, rename, fsync the dir. */
export function writeFileAtomic(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  try {
    renameSync(tmp, file);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
  try {
    const dirFd = openSync(path.dirname(file), "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  }
}

export function writeCredentials(stored: StoredCredentials): void {
  writeFileAtomic(
    credentialsFile(stored.resource),
    `${JSON.stringify({ ...stored, updatedAt: new Date().toISOString() }, null, 2)}\n`,
  );
}

export function deleteCredentials(resource: string): boolean {
  try {
    unlinkSync(credentialsFile(resource));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** A lock older than this is stale even when its process still runs (a refresh takes seconds). */
const STALE_LOCK_MS = 120_000;
const LOCK_WAIT_MS = 60_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes `lock` if it is stale: its process is gone, or it is older than STALE_LOCK_MS. */
function breakStaleLock(lock: string): void {
  let seen: string;
  let age: number;
  try {
    seen = readFileSync(lock, "utf8");
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return; // released meanwhile
  }
  const pid = Number(seen.split(" ")[0]);
  if (age < STALE_LOCK_MS && (!Number.isInteger(pid) || pid <= 0 || processAlive(pid))) return;
  // Move it aside (one rename wins), then check it is the lock we judged: if another process
  // broke it and took a fresh one in between, put that one back (link fails if a lock exists).
  const aside = `${lock}.${randomBytes(6).toString("hex")}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, "utf8") !== seen) linkSync(aside, lock);
  } catch {
    // someone else holds a new lock: theirs stays
  } finally {
    unlinkSync(aside);
  }
}

/**
 * Runs `fn` holding the cross-process lock `<file>.lock` (created with O_EXCL: of two
 * processes exactly one creates it). A lock whose process died, or older than two minutes,
 * is broken. Callers re-read the credential file inside `fn`: another process may have
 * refreshed while this one waited.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const token = `${process.pid} ${randomBytes(8).toString("hex")}`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (Date.now() > deadline) throw new Error(`timed out waiting for the credential lock ${lock}`);
      breakStaleLock(lock);
      await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      if (readFileSync(lock, "utf8") === token) unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}
