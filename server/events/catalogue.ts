/**
 * The MCP Events this instance offers on `/mcp/paperclip` (spec 004, "Task monitoring with
 * MCP Events"): three task events, webhook delivery only. Wire shapes follow the TypeScript
 * SDK's events branch (`events-spec-align`, packages/core/src/types/schemas.ts:
 * EventDescriptorSchema, EventOccurrenceSchema, SubscribeEventRequestParamsSchema).
 *
 * Payloads are bounded references (ids, status, revision, a link): never comment or document
 * text — a receiver reads the current state through the read tools, with the person's access.
 */
import { z } from "zod";
import { ISSUE_STATUSES } from "../contracts/values";

export const EVENT_NAMES = [
  "paperclip.task.status_changed",
  "paperclip.task.comment_created",
  "paperclip.task.document_updated",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

const companyId = z.uuid().describe("The company (organization) ID of this connection");
const taskId = z.string().min(1).max(64).describe("The task: its UUID or its identifier such as `ACME-12`");

/** What a subscription's arguments become once checked: UUIDs, and sorted statuses. */
export interface CanonicalArguments {
  companyId: string;
  taskId: string;
  statuses?: string[];
}

interface EventDefinition {
  name: EventName;
  title: string;
  description: string;
  input: z.ZodObject;
  payload: z.ZodObject;
}

const link = z.url().describe("The task in the Paperclip console");

const DEFINITIONS: readonly EventDefinition[] = [
  {
    name: "paperclip.task.status_changed",
    title: "Task status changed",
    description:
      "Fires when the task moves to another status (optionally only to one of `statuses`). The body names the new status; read the task (paperclip_read_task) before acting on it.",
    input: z.strictObject({
      companyId,
      taskId,
      statuses: z
        .array(z.enum(ISSUE_STATUSES))
        .min(1)
        .max(ISSUE_STATUSES.length)
        .optional()
        .describe("Only these new statuses (default: every change)"),
    }),
    payload: z.object({ taskId: z.uuid(), companyId: z.uuid(), status: z.enum(ISSUE_STATUSES), link }),
  },
  {
    name: "paperclip.task.comment_created",
    title: "Comment added to a task",
    description:
      "Fires when someone comments on the task. The body carries the comment id, not its text: read it with paperclip_list_task_comments. Do not comment merely to acknowledge a comment.",
    input: z.strictObject({ companyId, taskId }),
    payload: z.object({ taskId: z.uuid(), companyId: z.uuid(), commentId: z.uuid(), link }),
  },
  {
    name: "paperclip.task.document_updated",
    title: "Task document updated",
    description:
      "Fires when a Markdown document of the task gets a new revision. The body names the document key and revision; read it with paperclip_read_document.",
    input: z.strictObject({ companyId, taskId }),
    payload: z.object({
      taskId: z.uuid(),
      companyId: z.uuid(),
      documentKey: z.string(),
      revision: z.number().int(),
      link,
    }),
  },
];

const BY_NAME = new Map<string, EventDefinition>(DEFINITIONS.map((d) => [d.name, d]));

export const eventDefinition = (name: string): EventDefinition | undefined => BY_NAME.get(name);

/** `events/list`: descriptors with JSON Schemas of the arguments and the `data` payload. */
export function eventDescriptors() {
  return DEFINITIONS.map((d) => ({
    name: d.name,
    title: d.title,
    description: d.description,
    delivery: ["webhook"] as const,
    inputSchema: jsonSchema(d.input),
    payloadSchema: jsonSchema(d.payload),
  }));
}

function jsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}
