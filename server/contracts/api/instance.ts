// Responses of the instance administrators' routes (`/api/instance/*`): the stdio command
// catalogue (server/runtime/catalog.ts) and the private-upstream grants
// (server/instance/private-upstreams.ts).
import { z } from "zod";
import { BUNDLED_FIXTURES } from "../values";
import { IsoDate } from "./common";
import { StdioArgSlot, StdioEnvSlot } from "./stdio";

/** A catalogue command as the operator sees it: the full command line and its limits. */
export const StdioCatalogCommand = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** A fixture server shipped with the product (else `command`). */
  fixture: z.enum(BUNDLED_FIXTURES).nullable(),
  /** Absolute path of the executable; null for a fixture. */
  command: z.string().nullable(),
  args: z.array(z.string()),
  argSlots: z.array(StdioArgSlot),
  envSlots: z.array(StdioEnvSlot),
  passEnv: z.array(z.string()),
  enabled: z.boolean(),
  requiresIsolation: z.boolean(),
  allowNetwork: z.boolean(),
  allowWorkspace: z.boolean(),
  /** Overrides PAPERCLIP_SLOT_IDLE_MS for its slots; null: the default. */
  idleTtlMs: z.number().nullable(),
  builtin: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

/** This host's stdio state in plain words. */
export const StdioHostSummary = z.object({
  stdioEnabled: z.boolean(),
  stdioReason: z.string().nullable(),
  isolation: z.string(),
});

/** `GET /api/instance/stdio-commands`. */
export const InstanceStdioCommandsResponse = z.object({
  commands: z.array(StdioCatalogCommand),
  host: StdioHostSummary,
});

/** `GET /api/instance/private-upstreams` (and the answer of its POST). */
export const PrivateUpstreamsResponse = z.object({
  /** The operator's grants. `addedAt` is stored as an ISO string. */
  entries: z.array(
    z.object({
      origin: z.string(),
      note: z.string().nullable(),
      addedAt: z.string(),
      addedByUserId: z.string().nullable(),
    }),
  ),
  /** The grant the built-in examples need (their MCP fixtures on this origin), when enabled. */
  builtIn: z.array(z.object({ origin: z.string(), pathPrefix: z.string().optional() })),
  /** Private origins that connections use but no grant covers, with how many use them. */
  unlisted: z.array(z.object({ origin: z.string(), connections: z.number(), companies: z.number() })),
});
