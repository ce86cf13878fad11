/**
 * The closed registry of public MCP operations (docs/public-mcp.md, "Tools"). Every operation
 * an assistant connection can reach is one entry here: its name, the OAuth scope it needs,
 * its zod input schema and the server verb it calls. `paperclip_search_api` describes exactly
 * these entries, `paperclip_call_api` dispatches only to them, and the direct tools (the
 * original ten, the file-transfer pair) are entries with a `tool` name — one list, so the two
 * interfaces cannot drift apart.
 *
 * An operation never takes a URL, a REST path, a credential or an actor: its schema is a
 * strict object (unknown keys refused), and the actor is the verified person of the grant.
 */
import { z } from "zod";
import type { ServiceContext } from "../context";
import type { LiveGrant } from "../oauth/store";

export type OperationScope = "paperclip:read" | "paperclip:write" | "paperclip:configure";

/** Who is calling: the live grant, its effective scopes, and the request-local person context. */
export interface McpSession {
  live: LiveGrant;
  /** The grant's scopes that both the token and the person's current role allow. */
  scopes: readonly string[];
  /**
   * A `user` actor for the grant's person with `via` naming the connection: the verbs check
   * the person's membership and capabilities exactly as for the REST API.
   */
  ctx: ServiceContext;
  /** The instance's public origin (links carry `/c/<companyId>/…`). */
  origin: string;
}

export interface Operation<I extends z.ZodObject = z.ZodObject> {
  /** Stable operation id (snake_case), e.g. `update_task`; the receipt key's operation. */
  name: string;
  /** Set when the operation is also a direct MCP tool, e.g. `paperclip_create_task`. */
  tool?: string;
  scope: OperationScope;
  title: string;
  /** One or two sentences for the assistant: what it does, what it returns, what to do next. */
  description: string;
  /**
   * Strict zod object. Company-scoped operations have `companyId` (checked against the
   * grant's company before `run`); mutations have `requestId` (a UUID, the receipt key).
   */
  input: I;
  /** A mutation: reserved in the write receipts before it runs (server/public-mcp/receipts.ts). */
  mutation: boolean;
  /**
   * `receipt` (default for mutations): the receipt records the result and replays it.
   * `own`: the operation keeps its own idempotency on the same identity and must run again on
   * a retry (`get_upload_url` mints a fresh URL for the same pending transfer — a URL is a
   * credential, so no receipt may store it).
   */
  idempotency?: "receipt" | "own";
  /** Reads of sensitive objects (instructions, downloads) are written to the activity log. */
  sensitiveRead?: boolean;
  /** Runs the verb; returns a bounded, JSON-serialisable projection (never credentials). */
  run(session: McpSession, args: z.infer<I>): Promise<unknown>;
}

/** Declares an operation with its argument type inferred from `input`. */
export const defineOperation = <I extends z.ZodObject>(op: Operation<I>): Operation =>
  op as unknown as Operation;

/** The explicit company every company-scoped operation takes; it must be the grant's. */
export const companyIdArg = z.uuid().describe("The company (organization) ID of this connection");

/** The UUID every mutation takes, unique per intended action; reuse it to retry. */
export const requestIdArg = z
  .uuid()
  .describe(
    "A UUID unique to this intended action. Retry with the same requestId and arguments; never a new one to force success",
  );

/** Offset pagination of bounded lists. */
export const pageArgs = {
  limit: z.number().int().min(1).max(50).default(20),
  offset: z.number().int().min(0).max(10_000).default(0),
};

/** A link into the console that carries the company prefix (`/c/<companyId>/…`). */
export const companyLink = (session: McpSession, path: string): string =>
  `${session.origin}/c/${session.live.grant.companyId}${path.startsWith("/") ? path : `/${path}`}`;
