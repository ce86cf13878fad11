import { z } from "zod";
import { isValidGlob, MAX_GLOB_LENGTH } from "./glob";
import { type PolicyOperator, RISKS } from "./values";

// The shape of policy selectors, conditions and effects. Used twice: by the admin API to refuse
// bad policies up front, and by the engine to fail closed on any row that is malformed anyway
// (written by an older build, edited in the database, or of a kind this build does not know).
// Everything is bounded: list sizes, string lengths, pointer depth. No regular expressions.

const Id = z.string().min(1).max(64);
const IdList = z.array(Id).min(1).max(200);
const RiskValue = z.enum(RISKS);

export const PolicySelectors = z
  .object({
    applicationIds: IdList.optional(),
    connectionIds: IdList.optional(),
    catalogEntryIds: IdList.optional(),
    toolGlobs: z
      .array(z.string().refine(isValidGlob, `a glob of 1-${MAX_GLOB_LENGTH} characters`))
      .min(1)
      .max(50)
      .optional(),
    risks: z.array(RiskValue).min(1).max(3).optional(),
    agentIds: IdList.optional(),
    projectIds: IdList.optional(),
    issueIds: IdList.optional(),
    routineIds: IdList.optional(),
  })
  .strict();
export type PolicySelectors = z.infer<typeof PolicySelectors>;

/** RFC 6901 JSON pointer, at most 8 segments. */
export const JsonPointer = z
  .string()
  .max(256)
  .refine((p) => p === "" || (p.startsWith("/") && p.split("/").length <= 9), "a JSON pointer such as `/to`");

const Scalar = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const ArgumentConstraint = z.discriminatedUnion("op", [
  z.object({ path: JsonPointer, op: z.literal("exists") }).strict(),
  z.object({ path: JsonPointer, op: z.literal("not_exists") }).strict(),
  z.object({ path: JsonPointer, op: z.literal("equals"), value: Scalar }).strict(),
  z.object({ path: JsonPointer, op: z.literal("not_equals"), value: Scalar }).strict(),
  z.object({ path: JsonPointer, op: z.literal("in"), value: z.array(Scalar).min(1).max(100) }).strict(),
  z.object({ path: JsonPointer, op: z.literal("not_in"), value: z.array(Scalar).min(1).max(100) }).strict(),
  z.object({ path: JsonPointer, op: z.literal("prefix"), value: z.string().max(1000) }).strict(),
  z.object({ path: JsonPointer, op: z.literal("suffix"), value: z.string().max(1000) }).strict(),
  z.object({ path: JsonPointer, op: z.literal("contains"), value: z.string().max(1000) }).strict(),
  z
    .object({
      path: JsonPointer,
      op: z.literal("glob"),
      value: z.string().refine(isValidGlob, `a glob of 1-${MAX_GLOB_LENGTH} characters`),
    })
    .strict(),
  z.object({ path: JsonPointer, op: z.literal("max_length"), value: z.number().int().min(0) }).strict(),
  z.object({ path: JsonPointer, op: z.literal("lte"), value: z.number() }).strict(),
  z.object({ path: JsonPointer, op: z.literal("gte"), value: z.number() }).strict(),
]);
export type ArgumentConstraint = z.infer<typeof ArgumentConstraint>;

// The union above spells each operator once (a discriminated union needs its literals); these
// two lines fail to compile when it and POLICY_OPERATORS (server/contracts/values.ts) drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const operatorsMatch: Same<ArgumentConstraint["op"], PolicyOperator> = true;
void operatorsMatch;

const HourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "`HH:MM`, 24-hour");

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const TimeWindow = z
  .object({
    /** ISO weekdays, 1 = Monday … 7 = Sunday. */
    days: z.array(z.number().int().min(1).max(7)).min(1).max(7).optional(),
    start: HourMinute.optional(),
    end: HourMinute.optional(),
    timezone: z
      .string()
      .max(64)
      .refine(isTimeZone, "an IANA time zone such as `Europe/Berlin`")
      .default("UTC"),
  })
  .strict()
  .refine(
    (w) => (w.start === undefined) === (w.end === undefined),
    "give both `start` and `end`, or neither",
  );
export type TimeWindow = z.infer<typeof TimeWindow>;

export const PolicyConditions = z
  .object({
    arguments: z.array(ArgumentConstraint).min(1).max(20).optional(),
    timeWindow: TimeWindow.optional(),
    requireIssue: z.boolean().optional(),
    requireProject: z.boolean().optional(),
    requireRoutine: z.boolean().optional(),
  })
  .strict();
export type PolicyConditions = z.infer<typeof PolicyConditions>;

export const RateLimitEffect = z
  .object({
    /** Calls allowed per window (the bucket's capacity). */
    limit: z.number().int().min(1).max(1_000_000),
    windowSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600),
    /** Whose calls share one bucket. */
    per: z.enum(["company", "agent", "run", "issue"]).default("agent"),
    /** One bucket per tool instead of one across the selected tools. */
    perTool: z.boolean().default(false),
  })
  .strict();
export type RateLimitEffect = z.infer<typeof RateLimitEffect>;

export const RedactEffect = z.object({ paths: z.array(JsonPointer).min(1).max(50) }).strict();
export const ApprovalEffect = z
  .object({
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .optional(),
  })
  .strict();
const EmptyEffect = z.object({}).strict();

export const POLICY_EFFECT_SCHEMAS = {
  allow: EmptyEffect,
  block: EmptyEffect,
  require_approval: ApprovalEffect,
  redact_arguments: RedactEffect,
  redact_result: RedactEffect,
  rate_limit: RateLimitEffect,
} as const;
export type KnownPolicyKind = keyof typeof POLICY_EFFECT_SCHEMAS;

export function isKnownPolicyKind(kind: string): kind is KnownPolicyKind {
  return Object.hasOwn(POLICY_EFFECT_SCHEMAS, kind);
}

/** Parses the effect of a known kind; an empty `{}` default for kinds that take none. */
export function parsePolicyEffect(kind: KnownPolicyKind, effect: unknown) {
  return POLICY_EFFECT_SCHEMAS[kind].safeParse(effect ?? {});
}

/** The parsed effect of each known kind. */
export type PolicyEffectOf = { [K in KnownPolicyKind]: z.infer<(typeof POLICY_EFFECT_SCHEMAS)[K]> };
/** A known kind with its parsed effect: a union discriminated by `kind`, so narrowing types the effect. */
export type KindedPolicyEffect = {
  [K in KnownPolicyKind]: { kind: K; effect: PolicyEffectOf[K] };
}[KnownPolicyKind];

/** Parses a known kind's effect into its discriminated form; null when it does not parse. */
export function parseKindedPolicyEffect(kind: KnownPolicyKind, effect: unknown): KindedPolicyEffect | null {
  const value = effect ?? {};
  switch (kind) {
    case "allow":
    case "block": {
      const r = EmptyEffect.safeParse(value);
      return r.success ? { kind, effect: r.data } : null;
    }
    case "require_approval": {
      const r = ApprovalEffect.safeParse(value);
      return r.success ? { kind, effect: r.data } : null;
    }
    case "redact_arguments":
    case "redact_result": {
      const r = RedactEffect.safeParse(value);
      return r.success ? { kind, effect: r.data } : null;
    }
    case "rate_limit": {
      const r = RateLimitEffect.safeParse(value);
      return r.success ? { kind, effect: r.data } : null;
    }
  }
}
