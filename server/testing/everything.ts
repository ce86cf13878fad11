import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

/** A free loopback port (bound and released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `@modelcontextprotocol/server-everything` (the SDK's reference server: tools, resources,
 * templates, prompts, completion) over Streamable HTTP in a child process, for tests that need
 * a real upstream with every MCP feature.
 */
export async function startEverything(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const entry = path.join(
    process.cwd(),
    "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
  );
  const child: ChildProcess = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start in 20 s")), 20_000);
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code})`)));
    child.stderr!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening on port")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
