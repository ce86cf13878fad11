/**
 * OAuth wire errors: one class per RFC error code, like the MCP SDK's
 * `src/server/auth/errors.ts`. These are the OAuth format (`{"error": "...",
 * "error_description": "..."}`, RFC 6749 §5.2), not the app's `{error:{code}}` catalogue:
 * OAuth clients parse this shape. Codes: RFC 6749 §4.1.2.1/§5.2, RFC 7591 §3.2.2, RFC 8628
 * §3.5, RFC 8707 §2 (`invalid_target`), RFC 6750 §3.1 (`invalid_token`).
 */
export abstract class OAuthError extends Error {
  abstract readonly errorCode: string;
  /** HTTP status on the token/registration endpoints (RFC 6749 §5.2: 400, 401 for clients). */
  readonly status: number = 400;
  /** Seconds for `Retry-After` (429). */
  retryAfterSeconds?: number;

  toResponseObject(): { error: string; error_description: string } {
    return { error: this.errorCode, error_description: this.message };
  }
}

/** The base class of one RFC error code: its `errorCode` and HTTP status. */
function oauthError(errorCode: string, status = 400) {
  return class extends OAuthError {
    readonly errorCode = errorCode;
    override readonly status = status;
  };
}

export class InvalidRequestError extends oauthError("invalid_request") {}
export class InvalidClientError extends oauthError("invalid_client", 401) {}
export class InvalidGrantError extends oauthError("invalid_grant") {}
export class UnauthorizedClientError extends oauthError("unauthorized_client") {}
export class UnsupportedGrantTypeError extends oauthError("unsupported_grant_type") {}
export class InvalidScopeError extends oauthError("invalid_scope") {}
export class AccessDeniedError extends oauthError("access_denied", 403) {}
export class InvalidTargetError extends oauthError("invalid_target") {}
export class InvalidClientMetadataError extends oauthError("invalid_client_metadata") {}
export class InvalidRedirectUriError extends oauthError("invalid_redirect_uri") {}
export class AuthorizationPendingError extends oauthError("authorization_pending") {}
export class SlowDownError extends oauthError("slow_down") {}
export class ExpiredTokenError extends oauthError("expired_token") {}
export class TemporarilyUnavailableError extends oauthError("temporarily_unavailable", 503) {}
/** A quota refusal (RFC 6585 429 with `Retry-After`); OAuth has no code of its own for it. */
export class TooManyRequestsError extends oauthError("too_many_requests", 429) {
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class ServerError extends oauthError("server_error", 500) {}

export const isOAuthError = (e: unknown): e is OAuthError => e instanceof OAuthError;
