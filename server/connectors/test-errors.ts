/**
 * The connection test's classified errors (docs/network-guard.md "Connection test errors").
 * A company admin sees a stable code and our own fixed sentence, never the upstream's text:
 * an upstream's error body, a redirect target or a TLS peer's message could carry anything
 * (another service's banner, internal host names, reflected secrets). The raw, scrubbed
 * message goes to the server log only.
 */
import { type ErrorCode, isServiceError } from "../errors";

export const CONNECTION_TEST_ERRORS = {
  missing_secret: "a secret bound to the connection is missing or revoked",
  upstream_requires_operator:
    "the upstream is on a loopback or private address; an instance administrator must allow its origin",
  upstream_blocked: "the upstream's address is never allowed (metadata, link-local or reserved)",
  upstream_redirect_refused: "the upstream redirected to a place this connection may not go",
  upstream_timeout: "the upstream did not answer in time",
  upstream_tls_error: "the TLS handshake with the upstream failed (certificate or protocol)",
  upstream_unreachable: "the upstream could not be reached (name lookup, refused or closed connection)",
  upstream_auth_failed: "the upstream refused the configured credentials",
  upstream_too_large: "the upstream's answer was larger than allowed",
  upstream_protocol_error: "the upstream did not answer as an MCP server",
} as const;

export type ConnectionTestErrorCode = keyof typeof CONNECTION_TEST_ERRORS;

export interface ClassifiedError {
  /** One of CONNECTION_TEST_ERRORS, or one of our own (non-upstream) codes passed through. */
  code: ErrorCode;
  /** Our sentence for the code; never upstream text. */
  message: string;
  /** Only facts we derived (an HTTP status, an MCP error number), never text. */
  details?: { httpStatus?: number; mcpCode?: number };
}

const TLS_CODE = /CERT|TLS|SSL|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY|HANDSHAKE/i;
/** Our own refusals whose messages we wrote (runtime, configuration): the code passes through. */
const OWN_CODE =
  /^(connection_misconfigured|unsafe_command_template|plugin_not_found|runtime_[a-z_]+|command_[a-z_]+|stdio_[a-z_]+|upstream_authorization_required|user_grant_required|upstream_oauth_[a-z_]+)$/;

const numberOr = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Maps anything a health check threw to a classified error. */
export function classifyUpstreamError(err: unknown): ClassifiedError {
  const known = (code: ConnectionTestErrorCode, details?: ClassifiedError["details"]): ClassifiedError => ({
    code,
    message: CONNECTION_TEST_ERRORS[code],
    ...(details && Object.values(details).some((v) => v !== undefined) ? { details } : {}),
  });
  if (!isServiceError(err)) return known("upstream_unreachable");
  const d = err.details ?? {};
  const netCode = typeof d.code === "string" ? d.code : "";
  switch (err.code) {
    case "upstream_unreachable":
      return known(TLS_CODE.test(netCode) ? "upstream_tls_error" : "upstream_unreachable");
    case "upstream_redirect_refused":
      // The guard refused a redirect hop for needing an operator's grant: say so.
      return known(d.reason === "upstream_requires_operator" ? "upstream_requires_operator" : err.code);
    case "missing_secret":
    case "upstream_requires_operator":
    case "upstream_blocked":
    case "upstream_timeout":
    case "upstream_too_large":
      return known(err.code);
    case "upstream_auth_failed":
      return known("upstream_auth_failed", { httpStatus: numberOr(d.httpStatus) });
    case "upstream_error":
      return known("upstream_protocol_error", {
        httpStatus: numberOr(d.httpStatus),
        mcpCode: numberOr(d.mcpCode),
      });
    default:
      if (OWN_CODE.test(err.code))
        return {
          code: err.code,
          message: `the connection check failed (\`${err.code}\`); an administrator can find details in the server log`,
        };
      return known("upstream_protocol_error");
  }
}
