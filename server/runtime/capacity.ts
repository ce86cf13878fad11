/**
 * Runtime-slot admission (pure): whether one more live slot fits under the per-company and
 * per-process caps, and which idle slots to stop to make room. Synchronous by design, so two
 * callers cannot both take the last place.
 */

export interface CapacitySlot {
  identity: { companyId: string };
  /** Starting or running: holds a place against the caps. */
  holdsProcess: boolean;
  state: string;
  inFlight: number;
  lastUsedAt: number;
}

export interface Caps {
  capPerCompany: number;
  capPerHost: number;
}

/** The least recently used running slot with no call in flight, among `filter` (first on ties). */
export function leastRecentlyUsedIdle<S extends CapacitySlot>(
  slots: Iterable<S>,
  filter: (s: S) => boolean,
  exclude?: S,
): S | null {
  let best: S | null = null;
  for (const s of slots) {
    if (s === exclude || s.state !== "running" || s.inFlight > 0 || !filter(s)) continue;
    if (!best || s.lastUsedAt < best.lastUsedAt) best = s;
  }
  return best;
}

/**
 * The slots to stop so one more live slot of `companyId` fits (`[]` when it fits as is), or
 * `null` when it cannot fit now. `exclude` (the slot being admitted) is neither counted nor a
 * victim.
 */
export function admissionVictims<S extends CapacitySlot>(
  slots: readonly S[],
  companyId: string,
  caps: Caps,
  exclude?: S,
): S[] | null {
  const inCompany = (s: S) => s.identity.companyId === companyId;
  const live = slots.filter((s) => s.holdsProcess && s !== exclude);
  let companyLive = live.filter(inCompany).length;
  let hostLive = live.length;
  const victims: S[] = [];
  const taken = new Set<S>();
  const pick = (filter: (s: S) => boolean) => {
    const v = leastRecentlyUsedIdle(slots, (s) => filter(s) && !taken.has(s), exclude);
    if (v) taken.add(v);
    return v;
  };
  if (companyLive >= caps.capPerCompany) {
    const v = companyLive === caps.capPerCompany ? pick(inCompany) : null;
    if (!v) return null;
    victims.push(v);
    companyLive--;
    hostLive--;
  }
  if (hostLive >= caps.capPerHost) {
    const v = hostLive === caps.capPerHost ? pick(() => true) : null;
    if (!v) return null;
    victims.push(v);
  }
  return victims;
}
