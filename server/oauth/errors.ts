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

export class InvalidRequestError extends OAuthError {
  readonly errorCode = "invalid_request";
}
export class InvalidClientError extends OAuthError {
  readonly errorCode = "invalid_client";
  override readonly status = 401;
}
export class InvalidGrantError extends OAuthError {
  readonly errorCode = "invalid_grant";
}
export class UnauthorizedClientError extends OAuthError {
  readonly errorCode = "unauthorized_client";
}
export class UnsupportedGrantTypeError extends OAuthError {
  readonly errorCode = "unsupported_grant_type";
}
export class InvalidScopeError extends OAuthError {
  readonly errorCode = "invalid_scope";
}
export class AccessDeniedError extends OAuthError {
  readonly errorCode = "access_denied";
  override readonly status = 403;
}
export class InvalidTargetError extends OAuthError {
  readonly errorCode = "invalid_target";
}
export class InvalidClientMetadataError extends OAuthError {
  readonly errorCode = "invalid_client_metadata";
}
export class InvalidRedirectUriError extends OAuthError {
  readonly errorCode = "invalid_redirect_uri";
}
export class AuthorizationPendingError extends OAuthError {
  readonly errorCode = "authorization_pending";
}
export class SlowDownError extends OAuthError {
  readonly errorCode = "slow_down";
}
export class ExpiredTokenError extends OAuthError {
  readonly errorCode = "expired_token";
}
export class TemporarilyUnavailableError extends OAuthError {
  readonly errorCode = "temporarily_unavailable";
  override readonly status = 503;
}
/** A quota refusal (RFC 6585 429 with `Retry-After`); OAuth has no code of its own for it. */
export class TooManyRequestsError extends OAuthError {
  readonly errorCode = "too_many_requests";
  override readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class ServerError extends OAuthError {
  readonly errorCode = "server_error";
  override readonly status = 500;
}

export const isOAuthError = (e: unknown): e is OAuthError => e instanceof OAuthError;
