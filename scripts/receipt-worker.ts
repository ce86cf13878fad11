/**
 * A server process for the write-receipt tests across processes
 * (server/public-mcp/receipts.int.test.ts): it opens its own pool on the shared database and
 * serves `POST /` `{grantId, args, operation?}` → the structured answer of the test-only probe
 * mutation (server/testing/receipt-probe.ts), or of the named registry operation, through
 * `runOperation`, as the public MCP endpoint runs a
 * registry operation. The probe sleeps `PROBE_DELAY_MS` before its write so calls race, and
 * kills its own process (SIGKILL) right after the write committed when the text is `crash` —
 * the window between the verb and its receipt. Prints `{"origin": …}`; serves until stdin closes.
 *
 * Test-only and fail closed: it refuses to start without `PAPERCLIP_TEST_OPERATIONS=1`, and no
 * production module imports it or the probe.
 */
import { createServer } from "node:http";
import { openDatabase } from "../db/client";
import { liveGrant } from "../server/oauth/store";
import { sessionFor } from "../server/public-mcp/endpoint";
import { operationNamed } from "../server/public-mcp/operations";
import { runOperation } from "../server/public-mcp/tools";
import { probeOperation } from "../server/testing/receipt-probe";
import { listenLoopback } from "../server/testing/serve";

if (process.env.PAPERCLIP_TEST_OPERATIONS !== "1")
  throw new Error("test-only: set PAPERCLIP_TEST_OPERATIONS=1");
const url = process.env.WORKER_DATABASE_URL;
if (!url) throw new Error("WORKER_DATABASE_URL is required");
const database = openDatabase(url, { max: 8 });
const delay = Number(process.env.PROBE_DELAY_MS ?? 0);
const probe = probeOperation({
  before: () => new Promise((r) => setTimeout(r, delay)),
  after: async (args) => {
    if (args.text === "crash") process.kill(process.pid, "SIGKILL");
  },
});

const server = createServer(async (req, res) => {
  try {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const { grantId, args, operation } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      grantId: string;
      args: Record<string, unknown>;
      /** A registry operation (e.g. `create_task`) instead of the probe. */
      operation?: string;
    };
    const op = operation ? operationNamed(operation) : probe;
    if (!op) throw new Error("unknown operation");
    const live = await liveGrant(database.db, grantId);
    if (!live) throw new Error("grant not live");
    const session = sessionFor(database.db, live, live.effectiveScopes, new Date());
    const result = await runOperation(session, op, args);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result.structuredContent));
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
// A fixed port when the test gives one (WORKER_PORT), else an ephemeral one.
const fixed = Number(process.env.WORKER_PORT ?? 0);
const port = fixed
  ? await new Promise<number>((resolve) => server.listen(fixed, "127.0.0.1", () => resolve(fixed)))
  : await listenLoopback(server);
process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${port}` })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  server.close();
  await database.close();
  process.exit(0);
});
