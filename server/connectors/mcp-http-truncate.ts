/** The bounded stand-in for an upstream result over the pool's `maxResultBytes` (`mcp-http.ts`). */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

function utf8Prefix(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  return buf
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
}

/** The stand-in for a result larger than `maxBytes`: a text preview and `_meta.truncated`. */
export function truncatedResult(
  result: CallToolResult,
  originalBytes: number,
  maxBytes: number,
): CallToolResult {
  const notice =
    `[Result truncated: the upstream returned ${originalBytes} bytes, more than the ${maxBytes}-byte limit. ` +
    "The full result was kept by the gateway.]";
  const text = result.content
    .filter((c): c is Extract<typeof c, { type: "text" }> => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  // Leave room for the notice and JSON escaping of the preview (worst case ×6 for \uXXXX).
  const budget = Math.max(0, Math.floor((maxBytes - 1024) / 6));
  const preview = text ? utf8Prefix(text, budget) : "";
  const content: CallToolResult["content"] = [{ type: "text", text: notice }];
  if (preview) content.push({ type: "text", text: preview });
  return {
    content,
    // Truncation is not an upstream failure; an upstream error result stays an error.
    isError: result.isError === true,
    _meta: { truncated: true, originalBytes },
  };
}
