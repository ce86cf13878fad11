/**
 * A Standard Webhooks receiver on a real HTTPS server (127.0.0.1, a random port, a certificate
 * from the test CA), for tests of MCP Events delivery: it verifies every POST's signature with
 * the `standardwebhooks` library — the same code a subscriber would run — records what came,
 * answers the verification challenge and answers deliveries with statuses a test programs.
 *
 * Test support only; production code never imports it (scripts/check-layers.ts).
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { createTestCa, type TestCa } from "./test-ca";

/** The most a receiver reads of one body; a longer one is answered 413 unread. */
export const RECEIVER_BODY_LIMIT = 1024 * 1024;

/**
 * How a verified `{"type":"verification","challenge":…}` is answered: `"echo"` (200 with
 * `{"challenge": <the challenge>}`, the default), `"wrong"` (200 with a different challenge),
 * `"status:<n>"` (status n, the correct challenge in the body — so only the status is wrong),
 * `"none"` (200 with `{}`).
 */
export type ChallengeMode = "echo" | "wrong" | "none" | `status:${number}`;

/** One request the receiver got. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  /** `webhook-id`, or null when absent. */
  webhookId: string | null;
  /** `webhook-timestamp` in Unix seconds, or null when absent or not a number. */
  timestamp: number | null;
  /** The `webhook-signature` tokens (`v1,<base64>`), in header order. */
  signatures: string[];
  /** `X-MCP-Subscription-Id`, or null when absent. */
  subscriptionId: string | null;
  /** The body parsed as JSON, or undefined when it is not JSON (or was too long). */
  body: unknown;
  /** The body as received (UTF-8); empty when it was over the limit. */
  raw: string;
  /** Whether a known secret verified the signature (and the timestamp was within 5 minutes). */
  verified: boolean;
  /** Why it did not verify (the library's message, or the receiver's). */
  verifyError?: string;
  /** The status the receiver answered; 0 when it dropped the connection instead. */
  answeredStatus: number;
  receivedAt: Date;
}

/** A verified delivery as `onDelivery` sees it, before it is answered. */
export type DeliveryView = Omit<ReceivedWebhook, "answeredStatus">;

/**
 * Chooses a delivery's status; `undefined` falls through to the default status, `0` drops the
 * connection without an answer (a network failure).
 */
export type DeliveryHandler = (record: DeliveryView) => number | undefined;

export interface WebhookReceiverOptions {
  /** The default secret(s), for a subscription without secrets of its own. */
  secret?: string | string[];
  /** Secrets by subscription id (`X-MCP-Subscription-Id`). */
  secrets?: Record<string, string | string[]>;
  /** How verification envelopes are answered (default `"echo"`). */
  challenge?: ChallengeMode;
  /** The status of a delivery when the queue is empty and `onDelivery` says nothing (200). */
  defaultStatus?: number;
  onDelivery?: DeliveryHandler;
  /** The certificate to serve (default: the process's `createTestCa()`). */
  tls?: TestCa;
}

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>/hook`. */
  url: string;
  /** The CA certificate (PEM) a client must trust to reach `url`. */
  ca: string;
  /** Every request, in arrival order (verified or not, verification envelopes too). */
  received: ReceivedWebhook[];
  /** Secrets by subscription id; a subscription missing here uses the default secret(s). */
  secrets: Map<string, string[]>;
  /** Replaces the default secret(s). */
  setSecret(secret: string | string[]): void;
  /** Replaces one subscription's secret(s); give both during a rotation to accept either. */
  setSecretFor(subscriptionId: string, secret: string | string[]): void;
  setChallenge(mode: ChallengeMode): void;
  /** Holds each verification answer this long (a slow receiver: verifications overlap). */
  setChallengeDelay(ms: number): void;
  /** Queues statuses for the next deliveries, one each (0 drops the connection). */
  respondWith(...statuses: number[]): void;
  setDefaultStatus(status: number): void;
  /** Sets (or with undefined clears) the function consulted after the queue. */
  setOnDelivery(handler: DeliveryHandler | undefined): void;
  /** Verified requests that are not verification envelopes. */
  deliveries(): ReceivedWebhook[];
  /** Verified verification envelopes. */
  verifications(): ReceivedWebhook[];
  /**
   * The first received record matching `pred` (seen with all records so far), polling every
   * 20 ms; rejects after `timeoutMs` (default 5000) listing what was received.
   */
  waitFor(
    pred: (record: ReceivedWebhook, received: readonly ReceivedWebhook[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedWebhook>;
  /** Forgets what was received and the queued statuses (secrets and modes stay). */
  reset(): void;
  close(): Promise<void>;
}

const HOOK_PATH = "/hook";

const asList = (s: string | string[]): string[] => (Array.isArray(s) ? [...s] : [s]);

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : null;
}

/** The body, or null when it is longer than the limit (then read to its end and dropped). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size <= RECEIVER_BODY_LIMIT) chunks.push(c as Buffer);
  }
  return size > RECEIVER_BODY_LIMIT ? null : Buffer.concat(chunks).toString("utf8");
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Verifies with each secret in turn; the library itself accepts any of several signatures. */
function verify(raw: string, req: IncomingMessage, secrets: string[]): { ok: boolean; error?: string } {
  const headers: Record<string, string> = {};
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const v = header(req, name);
    if (v !== null) headers[name] = v;
  }
  let error = "no secret is known for this subscription";
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(raw, headers);
      return { ok: true };
    } catch (e) {
      // A valid signature over a body that is not JSON: the library's JSON.parse threw.
      if (e instanceof SyntaxError) return { ok: true };
      error = e instanceof WebhookVerificationError ? e.message : `bad secret: ${(e as Error).message}`;
    }
  }
  return { ok: false, error };
}

function isVerification(body: unknown): body is { type: "verification"; challenge?: unknown } {
  return typeof body === "object" && body !== null && (body as { type?: unknown }).type === "verification";
}

function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function summary(r: ReceivedWebhook): string {
  const type = isVerification(r.body)
    ? "verification"
    : typeof r.body === "object" && r.body !== null
      ? String((r.body as { type?: unknown }).type ?? "?")
      : "?";
  const why = r.verified ? "verified" : `unverified (${r.verifyError})`;
  return `${r.method} ${r.path} id=${r.webhookId} sub=${r.subscriptionId} type=${type} ${why} → ${r.answeredStatus}`;
}

/**
 * Starts a receiver. Deliveries are answered, in order: the next queued status
 * (`respondWith`), else `onDelivery`'s answer, else the default status; a request whose
 * signature does not verify is answered 401, one to another path 404, another method 405.
 */
export async function startWebhookReceiver(opts: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const tls = opts.tls ?? createTestCa();
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string[]>(
    Object.entries(opts.secrets ?? {}).map(([id, s]) => [id, asList(s)]),
  );
  let defaultSecrets = opts.secret ? asList(opts.secret) : [];
  let challenge: ChallengeMode = opts.challenge ?? "echo";
  let challengeDelayMs = 0;
  let defaultStatus = opts.defaultStatus ?? 200;
  let onDelivery = opts.onDelivery;
  const queue: number[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const subscriptionId = header(req, "x-mcp-subscription-id");
    const timestampHeader = header(req, "webhook-timestamp");
    const timestamp =
      timestampHeader !== null && /^\d+$/.test(timestampHeader) ? Number(timestampHeader) : null;
    const view: DeliveryView = {
      method: req.method ?? "",
      path: new URL(req.url ?? "/", "https://receiver.invalid").pathname,
      webhookId: header(req, "webhook-id"),
      timestamp,
      signatures: (header(req, "webhook-signature") ?? "").split(" ").filter(Boolean),
      subscriptionId,
      body: raw === null ? undefined : parseJson(raw),
      raw: raw ?? "",
      verified: false,
      receivedAt: new Date(),
    };
    const answer = (status: number, body?: unknown, why?: string) => {
      received.push({ ...view, ...(why ? { verifyError: why } : {}), answeredStatus: status });
      if (status === 0) res.socket?.destroy();
      else if (body === undefined) res.writeHead(status).end();
      else answerJson(res, status, body);
    };
    if (view.path !== HOOK_PATH) return answer(404, { error: "not_found" }, "not the hook path");
    if (view.method !== "POST") return answer(405, { error: "method_not_allowed" }, "not a POST");
    if (raw === null) return answer(413, { error: "body_too_large" }, "body exceeds 1 MiB");
    const known = (subscriptionId !== null ? secrets.get(subscriptionId) : undefined) ?? defaultSecrets;
    const checked = verify(raw, req, known);
    if (!checked.ok) return answer(401, { error: "signature_invalid" }, checked.error);
    view.verified = true;
    if (isVerification(view.body)) {
      if (challengeDelayMs > 0) await new Promise((r) => setTimeout(r, challengeDelayMs));
      const nonce = view.body.challenge;
      if (challenge === "none") return answer(200, {});
      if (challenge === "wrong") return answer(200, { challenge: `${String(nonce)}-wrong` });
      const forced = /^status:(\d{3})$/.exec(challenge);
      return answer(forced ? Number(forced[1]) : 200, { challenge: nonce });
    }
    const status = queue.length > 0 ? queue.shift()! : (onDelivery?.(view) ?? defaultStatus);
    answer(status);
  };

  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) answerJson(res, 500, { error: "receiver_failed", message: String(e) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: WebhookReceiver = {
    url: `https://127.0.0.1:${port}${HOOK_PATH}`,
    ca: tls.caPem,
    received,
    secrets,
    setSecret: (secret) => {
      defaultSecrets = asList(secret);
    },
    setSecretFor: (id, secret) => {
      secrets.set(id, asList(secret));
    },
    setChallenge: (mode) => {
      challenge = mode;
    },
    setChallengeDelay: (ms) => {
      challengeDelayMs = ms;
    },
    respondWith: (...statuses) => {
      queue.push(...statuses);
    },
    setDefaultStatus: (status) => {
      defaultStatus = status;
    },
    setOnDelivery: (handler) => {
      onDelivery = handler;
    },
    deliveries: () => received.filter((r) => r.verified && !isVerification(r.body)),
    verifications: () => received.filter((r) => r.verified && isVerification(r.body)),
    waitFor: async (pred, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = received.find((r) => pred(r, received));
        if (hit) return hit;
        if (Date.now() >= deadline) {
          const seen = received.length === 0 ? "nothing" : received.map(summary).join("\n  ");
          throw new Error(`webhook receiver: no match within ${timeoutMs} ms; received:\n  ${seen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    reset: () => {
      received.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}

/**
 * A receiver on a fresh test CA that the server under test may call: its CA and origin are
 * put in `PAPERCLIP_TEST_EVENT_RECEIVER` (server/events/callback.ts honours it under
 * NODE_ENV=test only, and admits exactly that origin). `close()` also unsets the variable and
 * removes the CA; child processes spawned meanwhile inherit the variable.
 */
export async function startAdmittedReceiver(): Promise<WebhookReceiver> {
  const ca = createTestCa();
  const receiver = await startWebhookReceiver({ tls: ca });
  process.env.PAPERCLIP_TEST_EVENT_RECEIVER = JSON.stringify({
    ca: receiver.ca,
    origin: new URL(receiver.url).origin,
  });
  const close = receiver.close;
  receiver.close = async () => {
    delete process.env.PAPERCLIP_TEST_EVENT_RECEIVER;
    await close();
    ca.cleanup();
  };
  return receiver;
}
