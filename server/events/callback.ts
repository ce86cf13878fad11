/**
 * Calling a subscriber's callback: the URL policy, the guarded network path and Standard
 * Webhooks signing (spec 004: "a verified HTTPS callback, Standard Webhooks HMAC signatures,
 * public-address DNS pinning on every connection, and no redirects").
 *
 * - The URL must be `https` (plain `http` only to a loopback host, and only when the process
 *   runs in development: `NODE_ENV=development`). No credentials, no fragment, ≤ 2,048 chars.
 * - Every POST goes through `createGuardedFetch` (server/net): every address the host resolves
 *   to must be public, the connection goes to exactly the validated addresses (no second DNS
 *   lookup), redirects are refused (`redirect: "error"`), one timeout covers the request.
 * - Signatures come from the `standardwebhooks` package (`Webhook.sign`): `v1,<base64>` over
 *   `id.timestamp.body`, a fresh timestamp per attempt, one token per live key (two during a
 *   rotation). The SDK's events branch adds `X-MCP-Subscription-Id`
 *   (packages/core/src/shared/eventWebhook.ts, WEBHOOK_SUBSCRIPTION_ID_HEADER).
 *
 * Tests reach a loopback HTTPS receiver through `PAPERCLIP_TEST_EVENT_RECEIVER` (a test CA and
 * the one receiver origin to admit), read only when `NODE_ENV=test`: a production process
 * never honours it, and nothing an administrator configures can widen the policy.
 */
import { Webhook } from "standardwebhooks";
import { processCell } from "../config/process-singleton";
import { isServiceError } from "../errors";
import { createGuardedFetch, type GuardedFetch } from "../net/guarded-fetch";
import { callbackRefused, invalidParams, type WebhookLastError } from "./errors";
import { DELIVERY, MAX_URL_LENGTH } from "./limits";

export const SUBSCRIPTION_ID_HEADER = "X-MCP-Subscription-Id";
const USER_AGENT = "Paperclip-MCP-Events/1";

/** A Standard Webhooks secret: `whsec_` + base64 of 24–64 bytes (eventWebhook.ts decodeWebhookSecret). */
export function checkSecret(secret: unknown): string {
  if (typeof secret !== "string" || !/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/.test(secret))
    throw invalidParams(
      "webhook_secret_invalid",
      "delivery.secret must be `whsec_` followed by base64 of 24-64 random bytes",
    );
  const bytes = Buffer.from(secret.slice("whsec_".length), "base64").length;
  if (bytes < 24 || bytes > 64)
    throw invalidParams("webhook_secret_invalid", "delivery.secret must decode to 24-64 bytes");
  return secret;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const development = () => process.env.NODE_ENV === "development";

interface TestReceiver {
  ca: string;
  origin: string;
}

/** The test hook (see the module comment): `{ca, origin}` JSON, honoured only under NODE_ENV=test. */
function testReceiver(): TestReceiver | null {
  const raw = process.env.PAPERCLIP_TEST_EVENT_RECEIVER;
  if (!raw || process.env.NODE_ENV !== "test") return null;
  try {
    const v = JSON.parse(raw) as Partial<TestReceiver>;
    return typeof v.ca === "string" && typeof v.origin === "string" ? { ca: v.ca, origin: v.origin } : null;
  } catch {
    return null;
  }
}

/**
 * The syntactic checks of a callback URL, before any quota or network use. Address checks
 * happen on the connection (after the admission), so a host resolving to a private address
 * still consumes its verification attempt.
 */
export function checkCallbackUrl(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0)
    throw invalidParams("callback_url_invalid", "delivery.url must be a string");
  if (raw.length > MAX_URL_LENGTH)
    throw callbackRefused("url_refused", `the callback URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw callbackRefused("url_refused", "the callback URL is not a valid absolute URL");
  }
  if (url.username || url.password)
    throw callbackRefused("url_refused", "the callback URL must not carry credentials");
  if (url.hash) throw callbackRefused("url_refused", "the callback URL must not have a fragment");
  if (url.protocol === "https:") return raw;
  if (url.protocol === "http:" && development() && LOOPBACK_HOSTS.has(url.hostname)) return raw;
  throw callbackRefused(
    "url_refused",
    url.protocol === "http:"
      ? "the callback URL must use https (plain http is accepted only for a loopback receiver in development)"
      : `the callback URL must use https (got ${url.protocol})`,
  );
}

const cached = processCell<{ key: string; fetch: GuardedFetch }>("eventsCallbackFetch");

/** The process's guarded fetch for callbacks (one pool; rebuilt when the test hook changes). */
function callbackFetch(): GuardedFetch {
  const test = testReceiver();
  const key = test ? `test:${test.origin}:${test.ca.length}` : development() ? "dev" : "prod";
  if (cached.current?.key === key) return cached.current.fetch;
  void cached.current?.fetch.close();
  const allowPrivate = test
    ? (url: URL) => url.origin === test.origin
    : development()
      ? (url: URL) => LOOPBACK_HOSTS.has(url.hostname)
      : undefined;
  const fetch = createGuardedFetch({
    allowPrivate,
    timeoutMs: DELIVERY.timeoutMs,
    maxResponseBytes: 64 * 1024,
    maxRedirects: 0,
    ...(test ? { ca: test.ca } : {}),
  });
  cached.current = { key, fetch };
  return fetch;
}

export type PostOutcome =
  | { kind: "answered"; status: number; body: string }
  | { kind: "failed"; error: WebhookLastError; refused: boolean };

/**
 * Signs `body` with every secret and POSTs it. Never throws: a refused address, a redirect, a
 * TLS or network failure or a timeout is a `failed` outcome with its category. Nothing of the
 * receiver's answer but its status (and, for a verification, its body) is kept.
 */
export async function postSigned(
  url: string,
  secrets: readonly string[],
  subscriptionId: string,
  msgId: string,
  body: string,
): Promise<PostOutcome> {
  const now = new Date();
  const signature = secrets.map((s) => new Webhook(s).sign(msgId, now, body)).join(" ");
  try {
    const res = await callbackFetch()(url, {
      method: "POST",
      redirect: "error",
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": msgId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
        [SUBSCRIPTION_ID_HEADER]: subscriptionId,
      },
      body,
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => {});
      return { kind: "failed", error: "connection_refused", refused: true };
    }
    return { kind: "answered", status: res.status, body: await res.text() };
  } catch (err) {
    return { kind: "failed", ...classify(err) };
  }
}

function classify(err: unknown): { error: WebhookLastError; refused: boolean } {
  if (isServiceError(err)) {
    if (err.code === "upstream_timeout") return { error: "timeout", refused: false };
    if (
      err.code === "upstream_blocked" ||
      err.code === "upstream_requires_operator" ||
      err.code === "upstream_redirect_refused"
    )
      return { error: "connection_refused", refused: true };
    if (err.code === "upstream_tls_error") return { error: "tls_error", refused: false };
    if (err.code === "upstream_too_large") return { error: "http_4xx", refused: false };
  }
  const text = causeChainText(err);
  if (/timeout|timed out|abort/i.test(text)) return { error: "timeout", refused: false };
  if (/cert|tls|ssl|self.signed|unable to verify/i.test(text)) return { error: "tls_error", refused: false };
  return { error: "connection_refused", refused: false };
}

function causeChainText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const x = e as { message?: unknown; code?: unknown };
    parts.push(String(x.message ?? ""), String(x.code ?? ""));
  }
  return parts.join(" ");
}
