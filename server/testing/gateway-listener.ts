/** Test setup: the MCP endpoint on its own `node:http` listener (as `scripts/server.ts` serves it). */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleGatewayMcpNode, isGatewayMcpPath } from "../gateway/node";

export async function startGatewayListener(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (isGatewayMcpPath(req.url)) void handleGatewayMcpNode(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
