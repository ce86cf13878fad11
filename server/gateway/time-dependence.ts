import type { AccessSnapshot } from "../access/types";

const timeDependence = new WeakMap<AccessSnapshot, boolean>();

/** How long what is shown to a session, computed at one instant, serves a snapshot whose rules depend on time. */
export const TIME_DEPENDENT_LISTING_MS = 1000;

/**
 * Whether visibility can change while the snapshot stays the same (time windows, expiring
 * rules): then anything memoised per snapshot (listings, capabilities) is reused for at most
 * `TIME_DEPENDENT_LISTING_MS`.
 */
export function dependsOnTime(snapshot: AccessSnapshot): boolean {
  let v = timeDependence.get(snapshot);
  if (v === undefined) {
    v =
      snapshot.policies.some((p) => JSON.stringify(p.conditions ?? null).includes('"timeWindow"')) ||
      snapshot.trustRules.some((r) => r.expiresAt !== null);
    timeDependence.set(snapshot, v);
  }
  return v;
}
