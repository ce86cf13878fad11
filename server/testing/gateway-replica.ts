/**
 * A second gateway replica for cross-replica tests: the node listener of the MCP endpoint in
 * its own process, on the database named by `DATABASE_URL`. Prints one JSON line
 * `{"url": …}` when it listens; exits on SIGTERM.
 *
 *   DATABASE_URL=… tsx server/testing/gateway-replica.ts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleGatewayMcpNode, isGatewayMcpPath } from "../gateway/node";

const server = http.createServer((req, res) => {
  if (isGatewayMcpPath(req.url)) void handleGatewayMcpNode(req, res);
  else res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
