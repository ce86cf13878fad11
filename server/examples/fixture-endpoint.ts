import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { and, eq, isNull, ne } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { companyRow } from "@/db/join";
import { exampleCredentials, toolConnections } from "@/db/schema";
import {
  EXAMPLE_FIXTURES,
  type ExampleFixtureName,
  type ExampleFixtureStates,
  isExampleFixtureName,
} from "@/fixtures/mcp";
import { hashToken } from "../auth/tokens";
import { examplesEnabled } from "../config/examples";
import { processSingleton } from "../config/process-singleton";
import { isServiceError } from "../errors";
import { assertAllowedHost, currentGatewayDb } from "../gateway/http";

export { EXAMPLE_CREDENTIAL_PREFIX, EXAMPLES_MCP_PATH_PREFIX, examplesEnabled } from "../config/examples";

const CREDENTIAL = /^Bearer (pcex_[A-Za-z0-9_-]{43})$/;

/**
 * Example state, one per installed example (keyed by the SHA-256 of its credential), per
 * process. Examples are demos holding only synthetic data: bounded, and forgotten by a restart.
 */
type AnyState = ExampleFixtureStates[ExampleFixtureName];
const states = processSingleton("exampleStates", () => new LRUCache<string, AnyState>({ max: 2_000 }));

function stateFor<N extends ExampleFixtureName>(name: N, credentialHash: string): ExampleFixtureStates[N] {
  const key = `${name}:${credentialHash}`;
  let state = states.get(key);
  if (!state) {
    state = EXAMPLE_FIXTURES[name].createState();
    states.set(key, state);
  }
  return state as ExampleFixtureStates[N];
}

const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code, message } }, { status, headers });

const unauthorized = () =>
  refuse(401, "unauthenticated", "this example endpoint needs its install's credential", {
    "www-authenticate": 'Bearer realm="paperclip-example"',
  });

/**
 * The hash of a presented credential when it belongs to a live install of `fixture`: its row
 * is not revoked and its connection is not archived (archiving the example's application ends
 * its credential). Anything else is null.
 */
async function liveCredentialHash(request: Request, fixture: ExampleFixtureName): Promise<string | null> {
  const match = CREDENTIAL.exec((request.headers.get("authorization") ?? "").trim());
  if (!match) return null;
  const hash = hashToken(match[1]!);
  const db = currentGatewayDb();
  const [row] = await db
    .select({ id: exampleCredentials.id })
    .from(exampleCredentials)
    .innerJoin(
      toolConnections,
      companyRow(toolConnections, exampleCredentials.companyId, exampleCredentials.connectionId),
    )
    .where(
      and(
        eq(exampleCredentials.credentialHash, hash),
        eq(exampleCredentials.fixture, fixture),
        isNull(exampleCredentials.revokedAt),
        ne(toolConnections.status, "archived"),
      ),
    )
    .limit(1);
  return row ? hash : null;
}

/**
 * `/api/examples/mcp/<fixture>`: the example fixtures served as real MCP servers (Streamable
 * HTTP, stateless) from inside the app, so the Examples work with no extra process.
 *
 * - Host/Origin are checked like the gateway's (DNS-rebinding defence): 403 `host_not_allowed`.
 * - Every request must carry its install's credential (`Authorization: Bearer pcex_…`), which
 *   only the gateway holds: it is a company secret bound as a header to the example's
 *   connection, released for the gateway's own upstream call. Without it: 401. So a tool the
 *   gateway holds for approval cannot be run by calling here directly.
 * - All state is keyed by the credential's hash: two companies, or two installs, share nothing.
 *
 * PAPERCLIP_EXAMPLES=off removes the endpoint (404).
 */
export async function handleExampleFixture(request: Request, fixture: string): Promise<Response> {
  if (!examplesEnabled() || !isExampleFixtureName(fixture)) {
    return refuse(404, "not_found", "no such example fixture");
  }
  try {
    assertAllowedHost(request);
  } catch (err) {
    if (isServiceError(err)) return refuse(err.status, err.code, err.message);
    throw err;
  }
  const hash = await liveCredentialHash(request, fixture).catch(() => null);
  if (!hash) return unauthorized();
  if (request.method === "GET") return refuse(405, "method_not_allowed", "POST JSON-RPC");
  const server = EXAMPLE_FIXTURES[fixture].factory(stateFor(fixture, hash) as never);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  void server.close().catch(() => {});
  return response;
}
