import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";

/** Options of one stdio tool call (`RuntimeSupervisor.callTool`, `stdioCallTool`). */
export interface StdioCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onSlot?: (slotId: string | null) => void;
  /** More SDK request options (progress: `onprogress`, `resetTimeoutOnProgress`, `maxTotalTimeout`). */
  requestOptions?: Omit<RequestOptions, "timeout" | "signal">;
  /** The call's relay of the upstream's requests and log messages (`relay.ts`). */
  relay?: SlotRelay;
}

/** What one call on a slot does with the upstream's requests and log messages (the gateway's hooks). */
export interface SlotRelay {
  onRequest?: (
    method: string,
    params: Record<string, unknown> | undefined,
  ) => Promise<Record<string, unknown>>;
  onLog?: (params: { level: string; logger?: string; data?: unknown }) => void;
}
