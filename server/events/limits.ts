/**
 * The numbers of MCP Events (spec 004, "Task monitoring with MCP Events"), in one place; the
 * docs (docs/public-mcp.md, "Events") quote them.
 */
export const TTL = {
  defaultMs: 24 * 60 * 60 * 1000,
  maxMs: 24 * 60 * 60 * 1000,
  minMs: 30 * 1000,
} as const;

/** Verification leases and pending subscriptions expire after this. */
export const LEASE_MS = 60 * 1000;

export const QUOTAS = {
  /** Verifications running at once (unfinished admissions with a live lease). */
  concurrentVerifications: { grant: 2, company: 8, instance: 32 },
  /** Verification attempts started in the last minute, failures included. */
  verificationsPerMinute: { grant: 30, company: 200, instance: 1000 },
  /** Pending and active subscriptions. */
  subscriptions: { grant: 20, company: 100, instance: 1000 },
} as const;

export const DELIVERY = {
  /** Attempts per delivery, the first included. */
  maxAttempts: 6,
  /** Backoff before attempt n+1: base · 2^(n-1), ±50 % jitter, capped. */
  retryBaseMs: 5_000,
  retryMaxMs: 10 * 60 * 1000,
  /** How long a worker's claim on a delivery lasts (a crashed worker's is taken over after it). */
  claimMs: 60 * 1000,
  /** One POST: connect, headers and the (discarded) body. */
  timeoutMs: 10_000,
  /** Deliveries claimed per batch. */
  batch: 20,
  /** Both signing keys are used this long after a rotation. */
  rotationOverlapMs: 5 * 60 * 1000,
} as const;

/** Expired or stopped subscriptions (with their receipts) are removed after this. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Largest callback URL accepted. */
export const MAX_URL_LENGTH = 2048;
