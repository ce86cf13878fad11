import { randomBytes, X509Certificate } from "node:crypto";
import { existsSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { Agent, fetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestCa } from "./test-ca";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

let receiver: WebhookReceiver;
let agent: Agent;
const secret = newSecret();

beforeAll(async () => {
  receiver = await startWebhookReceiver({ secret });
  agent = new Agent({ connect: { ca: receiver.ca } });
});

afterAll(async () => {
  await agent.close();
  await receiver.close();
});

afterEach(() => {
  receiver.reset();
  receiver.setChallenge("echo");
  receiver.setDefaultStatus(200);
  receiver.setOnDelivery(undefined);
  receiver.setSecret(secret);
  receiver.secrets.clear();
});

interface Send {
  payload: unknown;
  /** Secrets to sign with; each adds one signature token. */
  signWith?: string[];
  signature?: string;
  subscriptionId?: string;
  id?: string;
  at?: Date;
}

async function send(s: Send) {
  const raw = JSON.stringify(s.payload);
  const id = s.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const at = s.at ?? new Date();
  const signature =
    s.signature ?? (s.signWith ?? [secret]).map((k) => new Webhook(k).sign(id, at, raw)).join(" ");
  const res = await fetch(receiver.url, {
    method: "POST",
    dispatcher: agent,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
      ...(s.subscriptionId ? { "x-mcp-subscription-id": s.subscriptionId } : {}),
    },
    body: raw,
  });
  return { status: res.status, text: await res.text(), id };
}

describe("test CA", () => {
  it("issues a server certificate for localhost, 127.0.0.1 and ::1 signed by the CA", () => {
    const ca = createTestCa();
    const cert = new X509Certificate(ca.certPem);
    const root = new X509Certificate(ca.caPem);
    expect(root.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.verify(root.publicKey)).toBe(true);
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkIP("::1")).toBe("::1");
    expect(cert.checkHost("example.com")).toBeUndefined();
    expect(cert.checkIP("10.0.0.1")).toBeUndefined();
  });

  it("returns the same CA within a process until it is cleaned up", () => {
    const ca = createTestCa();
    expect(createTestCa()).toBe(ca);
    expect(ca.caPem).toBe(receiver.ca);
  });

  it("makes a separate CA under a given directory and removes only its own files", () => {
    const base = createTestCa().dir;
    const other = createTestCa(base);
    expect(createTestCa(base)).toBe(other);
    expect(other.caPem).not.toBe(createTestCa().caPem);
    expect(existsSync(other.dir)).toBe(true);
    other.cleanup();
    expect(existsSync(other.dir)).toBe(false);
    expect(existsSync(base)).toBe(true);
    expect(createTestCa(base)).not.toBe(other);
    createTestCa(base).cleanup();
  });
});

describe("webhook receiver", () => {
  it("records a verified delivery and answers 200", async () => {
    const payload = { type: "event", data: { n: 1 } };
    const sent = await send({ payload, subscriptionId: "sub_1" });
    expect(sent.status).toBe(200);
    const [r] = receiver.deliveries();
    expect(r).toMatchObject({
      method: "POST",
      path: "/hook",
      webhookId: sent.id,
      subscriptionId: "sub_1",
      body: payload,
      raw: JSON.stringify(payload),
      verified: true,
      answeredStatus: 200,
    });
    expect(r!.signatures).toHaveLength(1);
    expect(r!.signatures[0]).toMatch(/^v1,/);
    expect(r!.timestamp).toBeCloseTo(Date.now() / 1000, -1);
    expect(r!.verifyError).toBeUndefined();
  });

  it("answers a bad signature 401 and records it unverified", async () => {
    const sent = await send({ payload: { type: "event" }, signWith: [newSecret()] });
    expect(sent.status).toBe(401);
    expect(receiver.deliveries()).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ verified: false, answeredStatus: 401 });
    expect(receiver.received[0]!.verifyError).toMatch(/no matching signature/i);
  });

  it("refuses a stale timestamp and missing headers", async () => {
    const stale = await send({ payload: { type: "event" }, at: new Date(Date.now() - 10 * 60_000) });
    expect(stale.status).toBe(401);
    expect(receiver.received[0]!.verifyError).toMatch(/too old/i);
    const bare = await fetch(receiver.url, { method: "POST", dispatcher: agent, body: "{}" });
    expect(bare.status).toBe(401);
    expect(receiver.received[1]!.verifyError).toMatch(/missing required headers/i);
  });

  it("verifies a header carrying an old and a current signature during rotation", async () => {
    const old = newSecret();
    const sent = await send({ payload: { type: "event" }, signWith: [old, secret] });
    expect(sent.status).toBe(200);
    expect(receiver.deliveries()[0]!.signatures).toHaveLength(2);
    // and the receiver tries every secret it knows for the subscription
    receiver.setSecretFor("sub_r", [old, newSecret()]);
    expect(
      (await send({ payload: { type: "event" }, signWith: [old], subscriptionId: "sub_r" })).status,
    ).toBe(200);
    expect((await send({ payload: { type: "event" }, subscriptionId: "sub_r" })).status).toBe(401);
    expect(receiver.deliveries()).toHaveLength(2);
  });

  it("echoes the verification challenge", async () => {
    const sent = await send({ payload: { type: "verification", challenge: "nonce-123" } });
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.text)).toEqual({ challenge: "nonce-123" });
    expect(receiver.verifications()).toHaveLength(1);
    expect(receiver.deliveries()).toHaveLength(0);
  });

  it("answers the challenge wrongly, with a forced status or not at all when told to", async () => {
    const payload = { type: "verification", challenge: "nonce-456" };
    receiver.setChallenge("wrong");
    const wrong = await send({ payload });
    expect(wrong.status).toBe(200);
    expect(JSON.parse(wrong.text).challenge).not.toBe("nonce-456");
    receiver.setChallenge("status:500");
    const failed = await send({ payload });
    expect(failed.status).toBe(500);
    receiver.setChallenge("none");
    const none = await send({ payload });
    expect([none.status, JSON.parse(none.text)]).toEqual([200, {}]);
    expect(receiver.verifications().map((r) => r.answeredStatus)).toEqual([200, 500, 200]);
  });

  it("does not answer the challenge of an unverified envelope", async () => {
    const sent = await send({ payload: { type: "verification", challenge: "x" }, signWith: [newSecret()] });
    expect(sent.status).toBe(401);
    expect(sent.text).not.toContain('"challenge"');
    expect(receiver.verifications()).toHaveLength(0);
  });

  it("answers deliveries with the programmed statuses, then the default", async () => {
    receiver.respondWith(500, 503);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send({ payload: { type: "event", i } })).status);
    expect(statuses).toEqual([500, 503, 200]);
    receiver.setDefaultStatus(410);
    expect((await send({ payload: { type: "event" } })).status).toBe(410);
    expect(receiver.deliveries().map((r) => r.answeredStatus)).toEqual([500, 503, 200, 410]);
  });

  it("asks onDelivery after the queue and drops the connection on 0", async () => {
    receiver.setOnDelivery((r) => ((r.body as { i: number }).i === 1 ? 0 : 202));
    receiver.respondWith(500);
    expect((await send({ payload: { type: "event", i: 0 } })).status).toBe(500);
    expect((await send({ payload: { type: "event", i: 2 } })).status).toBe(202);
    await expect(send({ payload: { type: "event", i: 1 } })).rejects.toThrow();
    expect(receiver.deliveries().map((r) => r.answeredStatus)).toEqual([500, 202, 0]);
  });

  it("answers a body over 1 MiB 413 without reading it into the record", async () => {
    const sent = await send({ payload: { type: "event", pad: "x".repeat(1024 * 1024) } });
    expect(sent.status).toBe(413);
    expect(receiver.received[0]).toMatchObject({ verified: false, raw: "", answeredStatus: 413 });
  });

  it("waitFor resolves with the matching record, or rejects listing what came", async () => {
    const waiting = receiver.waitFor((r) => (r.body as { i?: number }).i === 7, 2000);
    await send({ payload: { type: "event", i: 6 } });
    await send({ payload: { type: "event", i: 7 } });
    expect((await waiting).body).toEqual({ type: "event", i: 7 });
    await expect(receiver.waitFor((r) => r.subscriptionId === "nobody", 100)).rejects.toThrow(
      /no match within 100 ms; received:\n.*type=event verified → 200/,
    );
  });

  it("cannot be reached by a client that does not trust the test CA", async () => {
    const err = await fetch(receiver.url, { method: "POST", body: "{}" }).then(
      () => null,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(err).not.toBeNull();
    expect(err!.cause?.code).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(receiver.received).toHaveLength(0);
  });

  it("serves a certificate valid for the name localhost and no other", async () => {
    const byName = (servername: string) => new Agent({ connect: { ca: receiver.ca, servername } });
    const [localhost, other] = [byName("localhost"), byName("example.com")];
    try {
      const res = await fetch(receiver.url, { method: "POST", dispatcher: localhost, body: "{}" });
      expect(res.status).toBe(401);
      const err = await fetch(receiver.url, { method: "POST", dispatcher: other, body: "{}" }).then(
        () => null,
        (e: unknown) => e as Error & { cause?: { code?: string } },
      );
      expect(err?.cause?.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      await Promise.all([localhost.close(), other.close()]);
    }
  });
});
