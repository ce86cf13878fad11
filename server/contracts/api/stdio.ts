// The stdio command catalogue's slots (the `arg_slots`/`env_slots` jsonb columns) and the
// responses of `GET /tools/stdio-commands` (server/runtime/catalog.ts) and
// `/tools/stdio-templates…` (server/runtime/templates.ts).
import { z } from "zod";
import { STDIO_CWD_POLICIES, TEMPLATE_STATUSES } from "../values";
import { NullableDate, nullableStrings, strings, Timestamps } from "./common";

/** A value a company may put in one slot of an approved stdio command. Small and strict on purpose. */
export const StdioSlotRule = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("enum"), values: z.array(z.string()) }),
  z.object({ kind: z.literal("pattern"), pattern: z.string(), maxLength: z.number() }),
  z.object({ kind: z.literal("string"), maxLength: z.number() }),
]);
export type StdioSlotRule = z.infer<typeof StdioSlotRule>;

/** An argument slot: appended after the fixed arguments, in catalogue order, as `[flag?, value]`. */
export const StdioArgSlot = z.object({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean(),
  /** Passed as its own argument before the value, e.g. `--root`. */
  flag: z.string().optional(),
  rule: StdioSlotRule,
});
export type StdioArgSlot = z.infer<typeof StdioArgSlot>;

/** An environment slot: a literal value for one variable, or (secret) a company secret binding. */
export const StdioEnvSlot = z.object({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean(),
  /** The value comes from the connection's `env_var` secret binding, not from the template. */
  secret: z.boolean(),
  rule: StdioSlotRule,
});
export type StdioEnvSlot = z.infer<typeof StdioEnvSlot>;

/** A catalogue command a company may build a template from (`GET /stdio-commands`). */
export const StdioCommandChoice = z.object({
  ...strings("key", "name"),
  description: z.string().nullable(),
  argSlots: z.array(StdioArgSlot),
  envSlots: z.array(StdioEnvSlot),
  requiresIsolation: z.boolean(),
  allowWorkspace: z.boolean(),
});

export const StdioCommandsResponse = z.object({ commands: z.array(StdioCommandChoice) });

/** A company's stdio template (`GET /stdio-templates/:id` and the template verbs). */
export const StdioTemplate = z.object({
  ...strings("id", "companyId", "name"),
  ...nullableStrings("description", "catalogCommandId"),
  slotValues: z.object({ args: z.record(z.string(), z.string()), env: z.record(z.string(), z.string()) }),
  /** The resolved command line, for display. */
  command: z.string(),
  args: z.array(z.string()),
  allowedEnvKeys: z.array(z.string()),
  cwdPolicy: z.enum(STDIO_CWD_POLICIES),
  trustScope: z.string(),
  perRunSlot: z.boolean(),
  status: z.enum(TEMPLATE_STATUSES),
  /** Connections that use the template. */
  connections: z.number(),
  createdByUserId: z.string().nullable(),
  ...Timestamps,
  disabledAt: NullableDate,
});

export const StdioTemplatesResponse = z.object({ templates: z.array(StdioTemplate) });
