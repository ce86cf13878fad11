import { type ChildProcess, spawn } from "node:child_process";
/** Test setup: the MCP endpoint on its own `node:http` listener (as `scripts/server.ts` serves it). */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
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

/**
 * A second gateway replica in its own process (`gateway-replica.ts`) on the database at
 * `databaseUrl`, for cross-replica tests; resolves once it listens. Kill it with SIGTERM.
 */
export async function spawnGatewayReplica(
  databaseUrl: string,
): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/testing/gateway-replica.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`replica exited (${code})`)));
  });
  return { origin: (JSON.parse(line) as { url: string }).url, child };
}

/**
 * Two gateway replicas on one database: this process's listener (A) and a spawned process (B).
 * `close()` stops both.
 */
export async function startTwoReplicas(
  databaseUrl: string,
): Promise<{ originA: string; originB: string; close: () => Promise<void> }> {
  const listener = await startGatewayListener();
  const second = await spawnGatewayReplica(databaseUrl);
  return {
    originA: listener.origin,
    originB: second.origin,
    close: async () => {
      second.child.kill("SIGTERM");
      await listener.close();
    },
  };
}
