/**
 * The stdio command catalogue's schemas (pure): the slot rules a command declares, the check
 * of a template's slot values against them, and the operator's create/update inputs.
 */
import { z } from "zod";
import type { instanceStdioCommands, StdioArgSlot, StdioEnvSlot, StdioSlotRule } from "@/db/schema";
import { BUNDLED_FIXTURES } from "@/db/schema/values";
import { argProblem, envKeyProblem, MAX_ARGS, MAX_ENV_KEYS } from "./env";

type CatalogCommandRow = typeof instanceStdioCommands.$inferSelect;

export const COMMAND_KEY = /^[a-z][a-z0-9_.-]{0,63}$/;
const SLOT_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const MAX_SLOTS = 16;
const MAX_SLOT_VALUE = 1024;

/** C0 controls and DEL: never inside a slot value. */
const hasControl = (v: string) => [...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

// ---------------------------------------------------------------------------------------------
// Slot rules

const SlotRule: z.ZodType<StdioSlotRule> = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("enum"),
      values: z
        .array(
          z
            .string()
            .min(1)
            .max(200)
            .refine((v) => argProblem(v) === null && !hasControl(v), "invalid value"),
        )
        .min(1)
        .max(50),
    })
    .strict(),
  z
    .object({
      kind: z.literal("pattern"),
      pattern: z
        .string()
        .min(1)
        .max(200)
        .refine((p) => {
          try {
            new RegExp(p, "u");
            return true;
          } catch {
            return false;
          }
        }, "not a valid regular expression"),
      maxLength: z.number().int().min(1).max(MAX_SLOT_VALUE),
    })
    .strict(),
  z.object({ kind: z.literal("string"), maxLength: z.number().int().min(1).max(MAX_SLOT_VALUE) }).strict(),
]);

const ArgSlot: z.ZodType<StdioArgSlot> = z
  .object({
    name: z.string().regex(SLOT_NAME, "lower-case letters, digits and `_`, starting with a letter"),
    description: z.string().trim().max(500).optional(),
    required: z.boolean().default(false),
    flag: z
      .string()
      .regex(/^--?[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, "a flag such as `--root`")
      .optional(),
    rule: SlotRule,
  })
  .strict();

const EnvSlot: z.ZodType<StdioEnvSlot> = z
  .object({
    name: z.string().superRefine((k, c) => {
      const problem = envKeyProblem(k);
      if (problem) c.addIssue({ code: "custom", message: `\`${k}\` ${problem}` });
    }),
    description: z.string().trim().max(500).optional(),
    required: z.boolean().default(false),
    secret: z.boolean().default(false),
    rule: SlotRule.default({ kind: "string", maxLength: MAX_SLOT_VALUE }),
  })
  .strict();

const uniqueNames = <T extends { name: string }>(list: T[], c: z.RefinementCtx) => {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.name))
      c.addIssue({ code: "custom", path: [i, "name"], message: `\`${s.name}\` is listed twice` });
    seen.add(s.name);
  });
};

/**
 * Why `value` may not fill a slot with `rule`, or null. Values are single arguments (never
 * shell words); free-form ones may not start with `-` (no option injection) and carry no
 * control characters.
 */
export function slotValueProblem(rule: StdioSlotRule, value: unknown, forArg: boolean): string | null {
  if (typeof value !== "string") return "must be a string";
  if (rule.kind === "enum")
    return rule.values.includes(value) ? null : `must be one of ${rule.values.join(", ")}`;
  if (value.length === 0) return "is empty";
  if (value.length > rule.maxLength) return `is longer than ${rule.maxLength} characters`;
  if (hasControl(value)) return "contains a control character";
  if (forArg && value.startsWith("-")) return "may not start with `-`";
  if (rule.kind === "pattern") {
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${rule.pattern})$`, "u");
    } catch {
      return "cannot be checked (the slot's pattern is invalid)";
    }
    if (!re.test(value)) return `does not match \`${rule.pattern}\``;
  }
  return null;
}

export interface SlotValues {
  args: Record<string, string>;
  env: Record<string, string>;
}

export type SlotCheck =
  | { ok: true; args: string[]; env: Record<string, string> }
  | { ok: false; slot: string; problem: string };

/** Validates a template's slot values against a catalogue command; gives the argv tail and env. */
export function checkSlotValues(
  cmd: Pick<CatalogCommandRow, "argSlots" | "envSlots">,
  values: SlotValues,
): SlotCheck {
  const argSlots = new Map(cmd.argSlots.map((s) => [s.name, s]));
  const envSlots = new Map(cmd.envSlots.map((s) => [s.name, s]));
  for (const name of Object.keys(values.args ?? {})) {
    if (!argSlots.has(name))
      return { ok: false, slot: `args.${name}`, problem: "is not a slot of this command" };
  }
  for (const name of Object.keys(values.env ?? {})) {
    const slot = envSlots.get(name);
    if (!slot) return { ok: false, slot: `env.${name}`, problem: "is not a slot of this command" };
    if (slot.secret)
      return { ok: false, slot: `env.${name}`, problem: "is filled by a secret binding, not a value" };
  }
  const args: string[] = [];
  for (const slot of cmd.argSlots) {
    const value = values.args?.[slot.name];
    if (value === undefined) {
      if (slot.required) return { ok: false, slot: `args.${slot.name}`, problem: "is required" };
      continue;
    }
    const problem = slotValueProblem(slot.rule, value, true);
    if (problem) return { ok: false, slot: `args.${slot.name}`, problem };
    if (slot.flag) args.push(slot.flag);
    args.push(value);
  }
  const env: Record<string, string> = {};
  for (const slot of cmd.envSlots) {
    if (slot.secret) continue;
    const value = values.env?.[slot.name];
    if (value === undefined) {
      if (slot.required) return { ok: false, slot: `env.${slot.name}`, problem: "is required" };
      continue;
    }
    const problem = slotValueProblem(slot.rule, value, false);
    if (problem) return { ok: false, slot: `env.${slot.name}`, problem };
    env[slot.name] = value;
  }
  return { ok: true, args, env };
}

// ---------------------------------------------------------------------------------------------
// Operator inputs

const CommandFields = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).optional(),
  /** A bundled fixture server of the product … */
  fixture: z.enum(BUNDLED_FIXTURES).optional(),
  /** … or an absolute path to an executable (or `node`, `npx`, `python3`, `uvx`, resolved now). */
  command: z.string().min(1).max(4096).optional(),
  args: z
    .array(z.string())
    .max(MAX_ARGS)
    .default([])
    .superRefine((args, c) => {
      args.forEach((a, i) => {
        const problem = argProblem(a);
        if (problem) c.addIssue({ code: "custom", path: [i], message: `argument ${i} ${problem}` });
      });
    }),
  argSlots: z.array(ArgSlot).max(MAX_SLOTS).default([]).superRefine(uniqueNames),
  envSlots: z.array(EnvSlot).max(MAX_SLOTS).default([]).superRefine(uniqueNames),
  passEnv: z
    .array(z.string())
    .max(MAX_ENV_KEYS)
    .default([])
    .superRefine((keys, c) => {
      keys.forEach((k, i) => {
        const problem = envKeyProblem(k);
        if (problem) c.addIssue({ code: "custom", path: [i], message: `\`${k}\` ${problem}` });
      });
    }),
  enabled: z.boolean().default(true),
  requiresIsolation: z.boolean().default(false),
  allowNetwork: z.boolean().default(false),
  allowWorkspace: z.boolean().default(false),
  idleTtlMs: z.number().int().min(1000).max(86_400_000).nullable().default(null),
});

export const CreateStdioCommandInput = CommandFields.extend({
  key: z.string().regex(COMMAND_KEY, "lower-case letters, digits and `_.-`, starting with a letter"),
})
  .strict()
  .superRefine((v, c) => {
    if ((v.fixture === undefined) === (v.command === undefined))
      c.addIssue({
        code: "custom",
        path: ["command"],
        message: "give exactly one of `command` and `fixture`",
      });
  });
export type CreateStdioCommandInput = z.infer<typeof CreateStdioCommandInput>;

/** What an operator may change later: whether it runs, its isolation, network and TTL. */
export const UpdateStdioCommandInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    enabled: z.boolean().optional(),
    requiresIsolation: z.boolean().optional(),
    allowNetwork: z.boolean().optional(),
    idleTtlMs: z.number().int().min(1000).max(86_400_000).nullable().optional(),
  })
  .strict();
export type UpdateStdioCommandInput = z.infer<typeof UpdateStdioCommandInput>;
