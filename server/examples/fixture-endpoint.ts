import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { FIXTURES, type FixtureName, type FixtureStates, isFixtureName } from "@/fixtures/mcp";

type States = { [N in FixtureName]?: FixtureStates[N] };
const g = globalThis as typeof globalThis & { __paperclipExampleStates?: States };
g.__paperclipExampleStates ??= {};
const states: States = g.__paperclipExampleStates;

/** One synthetic state per fixture per process (examples are demos, not data stores). */
export function exampleState<N extends FixtureName>(name: N): FixtureStates[N] {
  states[name] ??= FIXTURES[name].createState() as never;
  return states[name] as FixtureStates[N];
}

export const examplesEnabled = () => process.env.PAPERCLIP_EXAMPLES !== "off";

/**
 * `/api/examples/mcp/<fixture>`: the example fixtures served as real MCP servers (Streamable
 * HTTP, stateless) from inside the app, so the Examples work with no extra process. They hold
 * only synthetic state and touch no company data; agents still reach them only through the
 * gateway, which calls them like any other remote MCP server. PAPERCLIP_EXAMPLES=off removes them.
 */
export async function handleExampleFixture(request: Request, fixture: string): Promise<Response> {
  if (!examplesEnabled() || !isFixtureName(fixture)) {
    return Response.json(
      { error: { code: "not_found", message: "no such example fixture" } },
      { status: 404 },
    );
  }
  if (request.method === "GET")
    return Response.json(
      { error: { code: "method_not_allowed", message: "POST JSON-RPC" } },
      { status: 405 },
    );
  const server = FIXTURES[fixture].factory(exampleState(fixture) as never);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  void server.close().catch(() => {});
  return response;
}
