// Responses of `/tools/runtime-slots…` (server/runtime/slots.ts): the supervised stdio slots.
import { z } from "zod";
import { SLOT_STATUSES } from "../values";
import { IsoDate, nullableDates, nullableNumbers, numbers, strings, Timestamps } from "./common";

export const RuntimeSlot = z.object({
  ...strings("id", "companyId", "connectionId"),
  templateId: z.string().nullable(),
  kind: z.string(),
  status: z.enum(SLOT_STATUSES),
  ...strings("health", "host"),
  ...nullableNumbers("pid", "processGroupId"),
  ...strings("workspaceScope", "credentialScope", "trustScope"),
  runId: z.string().nullable(),
  ...numbers("idleTtlMs", "restartCount"),
  /** ISO instants of the latest restarts (the crash policy's window). */
  recentRestarts: z.array(z.string()),
  lastError: z.string().nullable(),
  ...nullableDates("startedAt", "lastUsedAt", "stoppedAt"),
  ...Timestamps,
  /** This server process supervises the slot; `live` is its in-memory state. */
  local: z.boolean(),
  live: z.object({ state: z.string(), inFlight: z.number(), lastUsedAt: IsoDate }).nullable(),
});

export const RuntimeSlotsResponse = z.object({ slots: z.array(RuntimeSlot) });

/** `GET /runtime-slots/:id`: the slot with its recent stderr (redacted and bounded). */
export const RuntimeSlotDetail = RuntimeSlot.extend({
  stderr: z.object({
    source: z.enum(["live", "saved"]),
    lines: z.array(z.string()),
    bytes: z.number(),
    droppedLines: z.number().nullable(),
  }),
});
