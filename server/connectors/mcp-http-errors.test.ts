import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { bearerChallenge, httpCallError } from "./mcp-http-errors";

const SECRET = "sk-canary-7f3a9c1e5b2d4f6a8c0e";
const entry = { connectionId: "c-1", origin: "https://upstream.example", secrets: [SECRET] };

describe("an upstream's JSON-RPC error", () => {
  it("keeps its code and data, with the connection's secrets removed from both message and data", () => {
    const err = new McpError(ErrorCode.InvalidParams, `bad token ${SECRET}`, {
      echoed: { authorization: `Bearer ${SECRET}` },
      hint: "check the value",
    });
    const out = httpCallError(err, entry as Parameters<typeof httpCallError>[1], 1000);
    expect(out.code).toBe("upstream_error");
    expect(out.details?.mcpCode).toBe(ErrorCode.InvalidParams);
    expect(JSON.stringify(out.details)).not.toContain(SECRET);
    expect(out.details?.rpcData).toEqual({
      echoed: { authorization: "Bearer [redacted]" },
      hint: "check the value",
    });
  });

  it("drops data larger than 4 KiB", () => {
    const err = new McpError(ErrorCode.InternalError, "boom", { blob: "x".repeat(5000) });
    const out = httpCallError(err, entry as Parameters<typeof httpCallError>[1], 1000);
    expect(out.details?.rpcData).toBeUndefined();
  });
});

describe("bearerChallenge", () => {
  it("reads error and scope of a Bearer challenge, quoted or not, and nothing else", () => {
    expect(
      bearerChallenge(
        'Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="https://x/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({ error: "insufficient_scope", scope: "mcp admin" });
    expect(bearerChallenge("Bearer error=invalid_token")).toEqual({ error: "invalid_token" });
    expect(bearerChallenge('Basic realm="x"')).toBeNull();
    expect(bearerChallenge('Bearer realm="x"')).toBeNull();
    expect(bearerChallenge(undefined)).toBeNull();
    expect(bearerChallenge(`Bearer scope="${"s".repeat(5000)}"`)).toBeNull();
  });
});
