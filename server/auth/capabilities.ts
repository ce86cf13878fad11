import type { MembershipRole } from "@/server/contracts/values";

/**
 * Capabilities checked by verbs. The `tools:*` set is the ADR's administrator capability set;
 * the rest govern the core product.
 */
export const CAPABILITIES = [
  "company:read",
  "company:manage",
  "members:manage",
  "board_keys:manage",
  "agents:manage",
  "work:write",
  "runs:manage",
  "tools:admin",
  "tools:manage_connections",
  "tools:manage_profiles",
  "tools:view_audit",
  "tools:use",
  "tools:manage_runtime",
  "tools:approve",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ALL: readonly Capability[] = CAPABILITIES;
const ADMIN: readonly Capability[] = CAPABILITIES.filter((c) => c !== "members:manage");
// Members approve or decline individual tool calls on issue threads they work on; changes to
// future autonomy (trust rules, policies) stay with admins.
const MEMBER: readonly Capability[] = [
  "company:read",
  "work:write",
  "runs:manage",
  "tools:use",
  "tools:approve",
];
const VIEWER: readonly Capability[] = ["company:read"];

/**
 * Role → capabilities. Owners hold everything; admins everything but membership management;
 * members do the work (issues, runs, using tools) but change no tool access; viewers read.
 * Audit reading (`tools:view_audit`) is an admin capability: audit rows can reveal what
 * agents tried to do across the company.
 */
export const ROLE_CAPABILITIES: Record<MembershipRole, ReadonlySet<Capability>> = {
  owner: new Set(ALL),
  admin: new Set(ADMIN),
  member: new Set(MEMBER),
  viewer: new Set(VIEWER),
};

export function roleHas(role: MembershipRole, capability: Capability): boolean {
  return ROLE_CAPABILITIES[role]?.has(capability) ?? false;
}

const ROLE_RANK: Record<string, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/**
 * The role a board key acts with: the lesser of its own role and its creator's current
 * membership role; null when the creator is gone, disabled or no longer a member.
 */
export function boardKeyEffectiveRole(row: {
  role: string;
  creatorId: string | null;
  creatorDisabledAt: Date | null;
  creatorRole: string | null;
}): "admin" | "member" | "viewer" | null {
  if (!row.creatorId || row.creatorDisabledAt || !row.creatorRole) return null;
  const own = ROLE_RANK[row.role];
  const creator = ROLE_RANK[row.creatorRole];
  if (own === undefined || creator === undefined) return null;
  const lesser = Math.min(own, creator, ROLE_RANK.admin!);
  return (["viewer", "member", "admin"] as const)[lesser]!;
}
