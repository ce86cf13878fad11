/**
 * `challengeOf`: where the gateway learns the scope an MCP server asks for before it starts an
 * authorization (MCP 2025-11-25 "Scope Selection Strategy": the challenge's `scope` first).
 * A real HTTP server on loopback plays servers that challenge at `initialize` or only later
 * (the conformance suite's `auth/scope-step-up` lets `initialize` through).
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "../net/guarded-fetch";
import { challengeOf } from "./flows";

type Mode = "challenge-initialize" | "challenge-tools-list" | "open";
let server: http.Server;
let base: string;
const seen: { method: string; session: string | null }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const mode = req.url?.slice(1) as Mode;
      const { method } = JSON.parse(body) as { method: string };
      seen.push({ method, session: (req.headers["mcp-session-id"] as string | undefined) ?? null });
      const challenge = `Bearer scope="mcp:basic", resource_metadata="${base}/.well-known/oauth-protected-resource/${mode}"`;
      if (mode === "open" || (mode === "challenge-tools-list" && method === "initialize")) {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }));
        return;
      }
      res.writeHead(401, { "www-authenticate": challenge, "content-type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_token" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function probe(mode: Mode) {
  seen.length = 0;
  const fetch = createGuardedFetch({ allowPrivate: () => true, timeoutMs: 5_000 });
  try {
    return await challengeOf(fetch, `${base}/${mode}`);
  } finally {
    await fetch.close();
  }
}

describe("challengeOf", () => {
  it("takes the challenge of a refused initialize and asks nothing more", async () => {
    const c = await probe("challenge-initialize");
    expect(c.scope).toBe("mcp:basic");
    expect(String(c.resourceMetadataUrl)).toBe(
      `${base}/.well-known/oauth-protected-resource/challenge-initialize`,
    );
    expect(seen.map((s) => s.method)).toEqual(["initialize"]);
  });

  it("asks tools/list in the session when initialize passes without a token, and takes its challenge", async () => {
    const c = await probe("challenge-tools-list");
    expect(c.scope).toBe("mcp:basic");
    expect(String(c.resourceMetadataUrl)).toBe(
      `${base}/.well-known/oauth-protected-resource/challenge-tools-list`,
    );
    expect(seen).toEqual([
      { method: "initialize", session: null },
      { method: "tools/list", session: "s-1" },
    ]);
  });

  it("gives no challenge for a server that refuses nothing", async () => {
    expect(await probe("open")).toEqual({});
  });
});
