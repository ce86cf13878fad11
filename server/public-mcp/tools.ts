/**
 * The public MCP tool surface, shared by both protocol eras (the SDK transport for
 * initialize-based clients, the stateless 2026-07-28 dispatcher): `listTools` and `callTool`
 * are the only way into the operation registry.
 *
 * Order of checks on a call (each refusal is a tool error with a stable `code`, never a 5xx):
 * the tool or operation exists → the session holds the operation's scope → the arguments
 * pass its strict schema → `companyId` is the grant's → a mutation goes through its write
 * receipt → the verb runs with the person's own permission checks.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { logActivity } from "../activity/log-activity";
import { dottedPath, findUnstorable } from "../contracts/json-shape";
import { fromDatabaseError, isServiceError } from "../errors";
import { trackCall } from "../lifecycle/drain";
import { OPERATIONS, operationForTool, operationNamed } from "./operations";
import { withReceipt } from "./receipts";
import type { McpSession, Operation } from "./registry";

export const SEARCH_API_TOOL = "paperclip_search_api";
export const CALL_API_TOOL = "paperclip_call_api";

/** A refusal answered as a tool error (`isError`), with a machine-readable code. */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Thrown for a tool name that does not exist (JSON-RPC -32602, as on the agent gateway). */
export class UnknownTool extends Error {}

const schemaOf = (input: z.ZodObject): Tool["inputSchema"] =>
  z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Tool["inputSchema"];

function describeOperation(op: Operation) {
  return {
    operation: op.name,
    ...(op.tool ? { tool: op.tool } : {}),
    title: op.title,
    description: op.description,
    scope: op.scope,
    mutation: op.mutation,
    inputSchema: schemaOf(op.input),
  };
}

const SearchApiInput = z.strictObject({
  query: z.string().max(200).optional().describe("Words to match in operation names and descriptions"),
  scope: z.enum(["paperclip:read", "paperclip:write", "paperclip:configure"]).optional(),
});

const CallApiInput = z.strictObject({
  operation: z.string().min(1).max(100).describe("An operation id from paperclip_search_api"),
  arguments: z.record(z.string(), z.unknown()).default({}).describe("The operation's arguments"),
});

const META_TOOLS: Tool[] = [
  {
    name: SEARCH_API_TOOL,
    title: "Search Paperclip operations",
    description:
      "Lists the named operations this connection can call with paperclip_call_api, with their scopes and JSON schemas.",
    inputSchema: schemaOf(SearchApiInput),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_API_TOOL,
    title: "Call a Paperclip operation",
    description:
      "Calls one operation from paperclip_search_api with validated arguments. Mutations need a UUID requestId; retry with the same one.",
    inputSchema: schemaOf(CallApiInput),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
];

/** The tools of this connection: the registry's direct tools, then the two API tools. */
export function listTools(): Tool[] {
  const direct = OPERATIONS.filter((op) => op.tool).map(
    (op): Tool => ({
      name: op.tool!,
      title: op.title,
      description: op.description,
      inputSchema: schemaOf(op.input),
      annotations: op.mutation
        ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
        : { readOnlyHint: true, openWorldHint: false },
    }),
  );
  return [...direct, ...META_TOOLS];
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success)
    throw new ToolRefusal("arguments_invalid", "the arguments do not match the schema", {
      issues: parsed.error.issues.slice(0, 20).map((i) => ({
        path: i.path.join("."),
        message: i.message,
      })),
    });
  return parsed.data;
}

/**
 * Text PostgreSQL cannot store (a lone UTF-16 surrogate, a NUL) anywhere in the arguments is
 * refused before the schema, the receipt (whose RFC 8785 hash throws on a lone surrogate) and
 * the verb: `invalid_request`, as the agent gateway refuses it (docs/gateway.md).
 */
function refuseUnstorable(rawArgs: unknown): void {
  const found = findUnstorable(rawArgs);
  if (!found) return;
  const what = found.problem === "nul" ? "a NUL character" : "an unpaired surrogate";
  const where = `${found.inKey ? "in a key at" : "at"} \`${dottedPath(found.path) || "(root)"}\``;
  throw new ToolRefusal(
    "invalid_request",
    `arguments contain text that cannot be stored (${what}) ${where}; send well-formed Unicode text`,
    { path: found.path, problem: found.problem },
  );
}

const ok = (value: unknown): CallToolResult => {
  const structured =
    value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value };
  return {
    content: [{ type: "text", text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
};

const refused = (code: string, message: string, details?: Record<string, unknown>): CallToolResult => {
  const error = { code, message, ...(details ? { details } : {}) };
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ error }, null, 2) }],
    structuredContent: { error },
  };
};

/** Ids among the arguments, for the activity row of a sensitive read (never bodies). */
const idsOf = (args: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(args).filter(([k, v]) => /Id$|^key$|^path$/.test(k) && typeof v === "string"),
  );

/** Runs one registry operation for the session; every refusal is a tool error. */
export async function runOperation(
  session: McpSession,
  op: Operation,
  rawArgs: unknown,
): Promise<CallToolResult> {
  try {
    if (!session.scopes.includes(op.scope))
      throw new ToolRefusal(
        "insufficient_scope",
        `this connection lacks the \`${op.scope}\` scope needed by \`${op.name}\`; reconnect and approve it`,
        { required: op.scope, granted: [...session.scopes] },
      );
    refuseUnstorable(rawArgs);
    const args = parse(op.input, rawArgs) as Record<string, unknown>;
    if ("companyId" in args && args.companyId !== session.live.grant.companyId)
      throw new ToolRefusal(
        "company_not_granted",
        "companyId must be the company of this connection (see paperclip_connection)",
      );
    const run = () => op.run(session, args);
    if (op.mutation && op.idempotency !== "own")
      return ok(await withReceipt(session, op, args as { requestId: string } & Record<string, unknown>, run));
    const value = await run();
    if (op.sensitiveRead)
      await logActivity(session.ctx.db, session.ctx, {
        companyId: session.live.grant.companyId,
        action: "public_mcp.read",
        entityType: "operation",
        entityId: op.name,
        details: { operation: op.name, ...idsOf(args) },
      });
    return ok(value);
  } catch (err) {
    if (err instanceof ToolRefusal) return refused(err.code, err.message, err.details);
    const known = isServiceError(err) ? err : fromDatabaseError(err);
    if (known && known.status < 500) return refused(known.code, known.message, known.details);
    throw err;
  }
}

/**
 * `tools/call`: a direct tool, or one of the two API tools. Counted as a call in flight, so a
 * draining server (SIGTERM) waits for it (server/lifecycle/drain.ts).
 */
export function callTool(session: McpSession, name: string, rawArgs: unknown): Promise<CallToolResult> {
  return trackCall(() => callToolNow(session, name, rawArgs));
}

async function callToolNow(session: McpSession, name: string, rawArgs: unknown): Promise<CallToolResult> {
  if (name === SEARCH_API_TOOL) {
    try {
      const { query, scope } = parse(SearchApiInput, rawArgs);
      const words = (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const matches = OPERATIONS.filter(
        (op) =>
          (!scope || op.scope === scope) &&
          words.every((w) => `${op.name} ${op.title} ${op.description}`.toLowerCase().includes(w)),
      );
      return ok({
        operations: matches.map((op) => ({
          ...describeOperation(op),
          allowed: session.scopes.includes(op.scope),
        })),
        total: matches.length,
      });
    } catch (err) {
      if (err instanceof ToolRefusal) return refused(err.code, err.message, err.details);
      throw err;
    }
  }
  if (name === CALL_API_TOOL) {
    let call: z.infer<typeof CallApiInput>;
    try {
      call = parse(CallApiInput, rawArgs);
    } catch (err) {
      if (err instanceof ToolRefusal) return refused(err.code, err.message, err.details);
      throw err;
    }
    const op = operationNamed(call.operation);
    if (!op)
      return refused(
        "unknown_operation",
        `no operation \`${call.operation.slice(0, 100)}\`; paperclip_search_api lists them`,
      );
    return runOperation(session, op, call.arguments);
  }
  const op = operationForTool(name);
  if (!op) throw new UnknownTool(name);
  return runOperation(session, op, rawArgs);
}
