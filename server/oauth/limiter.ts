/**
 * A bounded per-process limiter in front of the auth endpoints: a sliding minute per
 * (endpoint, source), at most 10,000 sources remembered (least recently seen forgotten). It
 * sheds floods before they reach the database; the quotas that must hold across replicas live
 * in PostgreSQL (./quota.ts). Edge rate limiting is still required (docs/public-mcp.md).
 */
import { LRUCache } from "lru-cache";
import { TooManyRequestsError } from "./errors";

export const PER_PROCESS_LIMIT = 300;
const WINDOW_MS = 60_000;

const seen = new LRUCache<string, number[]>({ max: 10_000 });

/** Throws `429` when `source` made `PER_PROCESS_LIMIT` requests to `endpoint` in the last minute. */
export function limitPerProcess(endpoint: string, source: string, now = Date.now()): void {
  const key = `${endpoint}\u0000${source}`;
  const recent = (seen.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
  if (recent.length >= PER_PROCESS_LIMIT) {
    seen.set(key, recent);
    throw new TooManyRequestsError(
      "too many requests; slow down",
      Math.ceil((recent[0]! + WINDOW_MS - now) / 1000),
    );
  }
  recent.push(now);
  seen.set(key, recent);
}
