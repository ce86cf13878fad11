import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";

/** Options of one stdio tool call (`RuntimeSupervisor.callTool`, `stdioCallTool`). */
export interface StdioCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onSlot?: (slotId: string | null) => void;
  /** More SDK request options (progress: `onprogress`, `resetTimeoutOnProgress`, `maxTotalTimeout`). */
  requestOptions?: Omit<RequestOptions, "timeout" | "signal">;
}
