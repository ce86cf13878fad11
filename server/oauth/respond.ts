/**
 * Responses of the OAuth endpoints (web-standard `Request` → `Response`). Bodies are never
 * logged: token-endpoint requests carry codes, verifiers and refresh tokens, and redirects
 * carry codes in `Location`. An unexpected failure logs only the endpoint and request id.
 */
import { randomUUID } from "node:crypto";
import { isServiceError, type ServiceError } from "../errors";
import { logError } from "../log";
import { readBoundedText } from "../net/read-bounded";
import { InvalidRequestError, isOAuthError, type OAuthError, ServerError } from "./errors";

/** RFC 6749 §5.1: token responses and errors are never cached. */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

export function oauthErrorResponse(err: OAuthError, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { ...headers };
  if (err.retryAfterSeconds) extra["retry-after"] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  return oauthJson(err.toResponseObject(), err.status, extra);
}

/** The app's JSON error shape (`{error:{code,message}}`), for catalogue codes such as `public_mcp_disabled`. */
export function serviceErrorResponse(err: ServiceError, requestId: string): Response {
  const headers: Record<string, string> = { ...NO_STORE, "x-request-id": requestId };
  const retry = err.details?.retryAfterSeconds;
  if ((err.status === 429 || err.status === 503) && typeof retry === "number" && retry > 0)
    headers["retry-after"] = String(Math.ceil(retry));
  return Response.json(
    { error: { code: err.code, message: err.message }, requestId },
    { status: err.status, headers },
  );
}

/** Runs an endpoint; maps OAuth and service errors, and hides anything else behind `server_error`. */
export async function oauthEndpoint(
  name: string,
  request: Request,
  run: (requestId: string) => Promise<Response>,
): Promise<Response> {
  const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
  try {
    return await run(requestId);
  } catch (err) {
    if (isOAuthError(err)) return oauthErrorResponse(err);
    if (isServiceError(err)) return serviceErrorResponse(err, requestId);
    // Only the endpoint and the request id: never the body, query or headers.
    logError("oauth.unhandled", err, { endpoint: name, requestId });
    return oauthErrorResponse(new ServerError(`internal error (request ${requestId})`));
  }
}

/** Reads an `application/x-www-form-urlencoded` body (RFC 6749 §3.2), at most 16 KiB. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new InvalidRequestError("send the body as application/x-www-form-urlencoded");
  // Bounded while reading (a chunked body has no content-length to check first).
  const text = await readBoundedText(request, 16 * 1024);
  if (text === null) throw new InvalidRequestError("the request body is too large");
  const form = new URLSearchParams(text);
  // RFC 6749 §3.1/§3.2: parameters must not be repeated.
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new InvalidRequestError(`the parameter \`${key}\` is repeated`);
    seen.add(key);
  }
  return form;
}
