import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pageOf, readCursor, signCursor } from "./mcp-cursor";
import { gatewayMcpScope, isGatewayMcpPath } from "./path";

beforeAll(() => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-cursor-"));
});

const scope = { list: "tools", app: "", sessionId: "s-1" };

describe("signed list cursors", () => {
  it("round-trips an offset and pages a list", () => {
    expect(readCursor(scope, signCursor(scope, 40))).toBe(40);
    expect(readCursor(scope, undefined)).toBe(0);
    process.env.PAPERCLIP_MCP_PAGE_SIZE = "2";
    try {
      const first = pageOf(scope, [1, 2, 3, 4, 5], 0);
      expect(first.page).toEqual([1, 2]);
      const last = pageOf(
        scope,
        [1, 2, 3, 4, 5],
        readCursor(scope, pageOf(scope, [1, 2, 3, 4, 5], 2).nextCursor),
      );
      expect(last).toEqual({ page: [5] });
    } finally {
      delete process.env.PAPERCLIP_MCP_PAGE_SIZE;
    }
  });

  it("refuses a forged, altered or moved cursor with -32602", () => {
    const good = signCursor(scope, 10);
    const [payload, mac] = good.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ l: "tools", a: "", s: "s-1", o: 0 })).toString(
      "base64url",
    );
    for (const bad of [
      "nonsense",
      `${payload}.${"A".repeat(mac!.length)}`,
      `${forgedPayload}.${mac}`,
      42,
      "x".repeat(600),
    ]) {
      expect(() => readCursor(scope, bad), String(bad).slice(0, 40)).toThrow(
        expect.objectContaining({ code: -32602 }),
      );
    }
    expect(() => readCursor({ ...scope, sessionId: "s-2" }, good)).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
    expect(() => readCursor({ ...scope, list: "prompts" }, good)).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
    expect(() => readCursor({ ...scope, app: "github" }, good)).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
  });
});

describe("gateway MCP paths", () => {
  it("tells the combined endpoint from a per-application one", () => {
    expect(gatewayMcpScope("/api/tool-gateway/mcp")).toEqual({ app: null });
    expect(gatewayMcpScope("/api/tool-gateway/mcp/?x=1")).toEqual({ app: null });
    expect(gatewayMcpScope("/api/tool-gateway/mcp/apps/github")).toEqual({ app: "github" });
    expect(gatewayMcpScope("/api/tool-gateway/mcp/apps/github/")).toEqual({ app: "github" });
    for (const other of [
      "/api/tool-gateway/mcpx",
      "/api/tool-gateway/mcp/apps/",
      "/api/tool-gateway/mcp/apps/Git",
      "/api/tool-gateway/mcp/apps/a/b",
      "/api/tool-gateway/mcp/other",
      "/api/tool-gateway/tools",
    ])
      expect(isGatewayMcpPath(other), other).toBe(false);
  });
});
