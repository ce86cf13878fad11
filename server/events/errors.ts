/**
 * The JSON-RPC errors of `events/*` (the SDK's events branch, packages/core/src/types/
 * constants.ts: NOT_FOUND −32011, FORBIDDEN −32012, RESOURCE_EXHAUSTED −32013, UNSUPPORTED
 * −32014, CALLBACK_ENDPOINT_ERROR −32015; InvalidParams −32602). `data.code` is our stable
 * snake_case code, beside the spec's own `data` fields (`kind`, `limit`, `max`, `reason`).
 */
export const EVENTS_RPC = {
  invalidParams: -32602,
  notFound: -32011,
  forbidden: -32012,
  resourceExhausted: -32013,
  unsupported: -32014,
  callbackEndpointError: -32015,
} as const;

/** The categories of a failed delivery or verification (WebhookLastErrorSchema). */
export type WebhookLastError =
  | "connection_refused"
  | "timeout"
  | "tls_error"
  | "http_4xx"
  | "http_5xx"
  | "challenge_failed";

export class EventsError extends Error {
  constructor(
    readonly rpcCode: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalidParams = (code: string, message: string, data?: Record<string, unknown>) =>
  new EventsError(EVENTS_RPC.invalidParams, code, message, data);

export const callbackRefused = (reason: WebhookLastError | "url_refused", message: string) =>
  new EventsError(EVENTS_RPC.callbackEndpointError, "callback_endpoint_error", message, { reason });
