/**
 * File transfer for assistant connections against PostgreSQL, with the `/mcp/files/<token>`
 * route served on a real loopback HTTP server: upload and download URLs, every refusal with
 * its own code and nothing stored, recovery of a lost response, conflicting bytes and
 * identities, revocation, expiry and clean-up.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as filesRoute from "@/app/mcp/files/[token]/route";
import {
  activityLog,
  attachmentBlobs,
  companyMemberships,
  instanceSettings,
  issueAttachments,
  issues,
  mcpFileTransfers,
  users,
} from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { revokeGrant } from "@/server/oauth/store";
import { connectAssistant, type TestConnection } from "@/server/testing/public-mcp";
import { listenLoopback, toRequest } from "@/server/testing/serve";
import {
  closeDemoWorld,
  demoOwner,
  demoWorld,
  issueOf,
  strangerCompany,
  type TestDatabase,
} from "@/server/testing/world";
import { systemContext } from "../context";

let database: TestDatabase;
let demo: DemoCredentials;
let ownerId: string;
let issueId: string;
let conn: TestConnection;
let origin: string;
let close: () => Promise<void>;

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const MB = 1024 * 1024;

/** Serves `/mcp/files/<token>` like Next.js would (the token as the route parameter). */
async function serveFiles() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const match = /^\/mcp\/files\/([^/]+)$/.exec(url.pathname);
    const handler = (
      { PUT: filesRoute.PUT, GET: filesRoute.GET, OPTIONS: filesRoute.OPTIONS } as Record<
        string,
        ((r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>) | undefined
      >
    )[req.method ?? ""];
    if (!match || !handler) {
      res.writeHead(404).end();
      return;
    }
    const response = await handler(await toRequest(req), { params: Promise.resolve({ token: match[1]! }) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  const port = await listenLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The returned URL's path on this test's server (the issuer is the configured public origin). */
const local = (url: string) => `${origin}${new URL(url).pathname}`;

async function setEnabled(on: boolean) {
  await database.db
    .insert(instanceSettings)
    .values({ key: "enablePublicMcp", value: on })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value: on } });
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  ownerId = (await demoOwner(database.db, demo)).id;
  issueId = await issueOf(database.db, demo.companyId, demo.agents[0]!.id);
  conn = await connectAssistant(database.db, {
    userId: ownerId,
    companyId: demo.companyId,
    clientName: "Files Bot",
  });
  ({ origin, close } = await serveFiles());
});
afterAll(async () => {
  await close?.();
  await closeDemoWorld(database);
});
beforeEach(async () => {
  await setEnabled(true);
  delete process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES;
});

type Structured = Record<string, unknown> & { error?: { code: string } };
const structured = async (c: TestConnection, tool: string, args: Record<string, unknown>) =>
  (await c.call(tool, args)).structuredContent as Structured;

interface UploadUrl {
  transferId: string;
  uploadUrl: string;
  method: "PUT";
  headers: { "content-type": string };
  expiresAt: string;
}

function fileArgs(bytes: Uint8Array, over: Record<string, unknown> = {}) {
  return {
    companyId: demo.companyId,
    taskId: issueId,
    filename: "demo.mp4",
    contentType: "video/mp4",
    byteSize: bytes.byteLength,
    sha256: sha(bytes),
    requestId: randomUUID(),
    ...over,
  };
}

async function uploadUrl(bytes: Uint8Array, over: Record<string, unknown> = {}, c = conn) {
  const result = await structured(c, "paperclip_get_upload_url", fileArgs(bytes, over));
  expect(result.error, JSON.stringify(result)).toBeUndefined();
  return result as unknown as UploadUrl;
}

async function put(url: string, body: Uint8Array, type = "video/mp4", headers: Record<string, string> = {}) {
  const res = await fetch(local(url), {
    method: "PUT",
    headers: { "content-type": type, ...headers },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { error?: { code: string } },
  };
}

const counts = async () => {
  const [a] = await database.db.select({ n: sql<number>`count(*)::int` }).from(issueAttachments);
  const [b] = await database.db.select({ n: sql<number>`count(*)::int` }).from(attachmentBlobs);
  return { attachments: a!.n, blobs: b!.n };
};

describe("upload and download URLs", () => {
  it("uploads 3 MB through the URL over HTTP and downloads the same bytes", async () => {
    const bytes = randomBytes(3 * MB);
    const url = await uploadUrl(bytes);
    expect(url).toMatchObject({ method: "PUT", headers: { "content-type": "video/mp4" } });
    expect(url.uploadUrl).toMatch(/\/mcp\/files\/pcft_[A-Za-z0-9_-]{43}$/);
    const token = new URL(url.uploadUrl).pathname.split("/").pop()!;
    const [stored] = await database.db
      .select()
      .from(mcpFileTransfers)
      .where(eq(mcpFileTransfers.id, url.transferId));
    expect(stored!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(new Date(url.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);

    const saved = await put(url.uploadUrl, bytes);
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    expect(saved.json).toMatchObject({
      taskId: issueId,
      filename: "demo.mp4",
      contentType: "video/mp4",
      byteSize: 3 * MB,
      sha256: sha(bytes),
      via: { clientName: "Files Bot" },
    });
    const [row] = await database.db
      .select()
      .from(issueAttachments)
      .where(eq(issueAttachments.id, saved.json.id as string));
    expect(row).toMatchObject({
      uploadedByUserId: ownerId,
      via: { grantId: conn.grantId, clientName: "Files Bot" },
    });
    const [activity] = await database.db
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, "issue.attachment_add"),
          sql`${activityLog.details}->>'attachmentId' = ${row!.id}`,
        ),
      );
    expect(activity?.details).toMatchObject({ via: { grantId: conn.grantId } });

    const listed = await conn.api("list_attachments", { companyId: demo.companyId, taskId: issueId });
    expect((listed.attachments as { id: string }[]).map((a) => a.id)).toContain(row!.id);

    const dl = await structured(conn, "paperclip_get_download_url", {
      companyId: demo.companyId,
      attachmentId: row!.id,
    });
    expect(dl).toMatchObject({
      filename: "demo.mp4",
      contentType: "video/mp4",
      byteSize: 3 * MB,
      sha256: sha(bytes),
    });
    for (let i = 0; i < 2; i++) {
      // Not a mutation: usable more than once while it lasts.
      const got = await fetch(local(dl.downloadUrl as string));
      expect(got.status).toBe(200);
      expect(got.headers.get("content-disposition")).toMatch(/^attachment; filename="demo.mp4"/);
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(got.headers.get("access-control-allow-origin")).toBe("*");
      expect(sha(new Uint8Array(await got.arrayBuffer()))).toBe(sha(bytes));
    }
    // The download was a sensitive read: logged with the attachment id, never the URL.
    const reads = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "public_mcp.read"));
    expect(reads.some((r) => (r.details as { attachmentId?: string }).attachmentId === row!.id)).toBe(true);
    expect(JSON.stringify(reads)).not.toContain("pcft_");
  });

  it("refuses each wrong upload with its own code and stores nothing", async () => {
    const bytes = randomBytes(64 * 1024);
    const before = await counts();
    const url = await uploadUrl(bytes);
    const refusals: [string, Awaited<ReturnType<typeof put>>][] = [];
    refusals.push(["size", await put(url.uploadUrl, bytes.subarray(1))]);
    const other = Buffer.from(bytes);
    other[0] = other[0]! ^ 0xff;
    refusals.push(["hash", await put(url.uploadUrl, other)]);
    refusals.push(["type", await put(url.uploadUrl, bytes, "application/octet-stream")]);
    process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES = String(32 * 1024);
    refusals.push(["large", await put(url.uploadUrl, bytes)]);
    delete process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES;
    refusals.push(["unknown", await put(url.uploadUrl.replace(/pcft_.{4}/, "pcft_AAAA"), bytes)]);
    expect(refusals.map(([what, r]) => [what, r.status, r.json.error?.code])).toEqual([
      ["size", 400, "transfer_size_mismatch"],
      ["hash", 400, "transfer_hash_mismatch"],
      ["type", 400, "transfer_type_mismatch"],
      ["large", 413, "attachment_too_large"],
      ["unknown", 404, "transfer_unknown"],
    ]);
    expect(await counts()).toEqual(before);
    // The URL still works for the right bytes.
    expect((await put(url.uploadUrl, bytes)).status).toBe(201);
  });

  it("refuses more than 10 MB when the URL is asked for and when the bytes arrive", async () => {
    const before = await counts();
    const big = await structured(conn, "paperclip_get_upload_url", {
      ...fileArgs(new Uint8Array(0)),
      byteSize: 10 * MB + 1,
      sha256: "a".repeat(64),
    });
    expect(big.error?.code).toBe("attachment_too_large");
    const bytes = randomBytes(1024);
    const url = await uploadUrl(bytes);
    const res = await put(url.uploadUrl, randomBytes(10 * MB + 1));
    expect([res.status, res.json.error?.code]).toEqual([413, "attachment_too_large"]);
    const typed = await structured(
      conn,
      "paperclip_get_upload_url",
      fileArgs(bytes, { contentType: "image/svg+xml" }),
    );
    expect(typed.error?.code).toBe("attachment_type_not_allowed");
    expect(await counts()).toEqual(before);
  });

  it("stops reading a chunked body at the URL's declared size + 1 (413), not at the 10 MB limit", async () => {
    const url = await uploadUrl(Buffer.from("abc"));
    const token = new URL(url.uploadUrl).pathname.split("/").pop()!;
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024);
    // No content-length: the body streams (chunked), as much as the server reads, up to 11 MB.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 11 * MB) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await filesRoute.PUT(
      new Request(local(url.uploadUrl), {
        method: "PUT",
        headers: { "content-type": "video/mp4" },
        body,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ token }) },
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("attachment_too_large");
    // One chunk past 3 bytes (plus what the stream buffers ahead), never the 10 MB limit.
    expect(pulled).toBeLessThan(MB);
  });

  it("refuses an expired URL and cleans expired pending transfers on the next request", async () => {
    const bytes = randomBytes(1024);
    const before = await counts();
    const url = await uploadUrl(bytes);
    await database.db
      .update(mcpFileTransfers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mcpFileTransfers.id, url.transferId));
    const res = await put(url.uploadUrl, bytes);
    expect([res.status, res.json.error?.code]).toEqual([410, "transfer_expired"]);
    expect(await counts()).toEqual(before);
    await uploadUrl(randomBytes(10));
    const left = await database.db
      .select()
      .from(mcpFileTransfers)
      .where(eq(mcpFileTransfers.id, url.transferId));
    expect(left).toEqual([]);
  });

  it("revocation kills issued upload and download URLs", async () => {
    const other = await connectAssistant(database.db, { userId: ownerId, companyId: demo.companyId });
    const bytes = randomBytes(2048);
    const url = await uploadUrl(bytes, {}, other);
    const [attachment] = await database.db
      .select({ id: issueAttachments.id })
      .from(issueAttachments)
      .limit(1);
    const dl = await structured(other, "paperclip_get_download_url", {
      companyId: demo.companyId,
      attachmentId: attachment!.id,
    });
    expect((await fetch(local(dl.downloadUrl as string))).status).toBe(200);
    const before = await counts();
    await revokeGrant(database.db, systemContext(database.db, "test"), other.grantId, "user");
    const res = await put(url.uploadUrl, bytes);
    expect([res.status, res.json.error?.code]).toEqual([403, "transfer_revoked"]);
    const got = await fetch(local(dl.downloadUrl as string));
    expect(got.status).toBe(403);
    expect(((await got.json()) as { error: { code: string } }).error.code).toBe("transfer_revoked");
    expect(await counts()).toEqual(before);
  });

  it("rechecks membership, write access and the instance setting at transfer time", async () => {
    const [member] = await database.db
      .insert(users)
      .values({ email: "files-member@acme.example", name: "M" })
      .returning();
    await database.db
      .insert(companyMemberships)
      .values({ companyId: demo.companyId, userId: member!.id, role: "member" });
    const memberConn = await connectAssistant(database.db, { userId: member!.id, companyId: demo.companyId });
    const bytes = randomBytes(512);
    const url = await uploadUrl(bytes, {}, memberConn);
    // Demoted to viewer: the write scope is gone, so the upload URL is refused.
    await database.db
      .update(companyMemberships)
      .set({ role: "viewer" })
      .where(eq(companyMemberships.userId, member!.id));
    expect((await put(url.uploadUrl, bytes)).json.error?.code).toBe("transfer_revoked");
    await database.db
      .update(companyMemberships)
      .set({ role: "member" })
      .where(eq(companyMemberships.userId, member!.id));
    await setEnabled(false);
    const off = await put(url.uploadUrl, bytes);
    expect([off.status, off.json.error?.code]).toEqual([503, "public_mcp_disabled"]);
    await setEnabled(true);
    expect((await put(url.uploadUrl, bytes)).status).toBe(201);
    // A read-only connection gets no upload URL at all.
    const reader = await connectAssistant(database.db, {
      userId: ownerId,
      companyId: demo.companyId,
      scopes: ["paperclip:read"],
    });
    expect((await structured(reader, "paperclip_get_upload_url", fileArgs(bytes))).error?.code).toBe(
      "insufficient_scope",
    );
  });

  it("recovers a lost response by repeating the PUT or the request, and refuses conflicting bytes", async () => {
    const bytes = randomBytes(4096);
    const requestId = randomUUID();
    const first = await uploadUrl(bytes, { requestId });
    // Asking again with the same identity: the same transfer, a fresh URL; the old one is dead.
    const second = await uploadUrl(bytes, { requestId });
    expect(second.transferId).toBe(first.transferId);
    expect(second.uploadUrl).not.toBe(first.uploadUrl);
    expect((await put(first.uploadUrl, bytes)).json.error?.code).toBe("transfer_unknown");
    const saved = await put(second.uploadUrl, bytes);
    expect(saved.status).toBe(201);
    const before = await counts();
    const again = await put(second.uploadUrl, bytes);
    expect([again.status, again.json.id]).toEqual([200, saved.json.id]);
    const other = Buffer.from(bytes);
    other[10] = other[10]! ^ 1;
    const conflicting = await put(second.uploadUrl, other);
    expect([conflicting.status, conflicting.json.error?.code]).toEqual([409, "transfer_already_completed"]);
    // Requesting the URL again after completion answers the saved attachment.
    const done = await structured(conn, "paperclip_get_upload_url", fileArgs(bytes, { requestId }));
    expect(done).toMatchObject({
      transferId: first.transferId,
      completed: true,
      attachment: { id: saved.json.id },
    });
    // The same requestId with another file is a conflict, before or after completion.
    for (const change of [
      { filename: "other.mp4" },
      { byteSize: 4095 },
      { sha256: sha(other) },
      { contentType: "video/webm" },
    ]) {
      const refused = await structured(
        conn,
        "paperclip_get_upload_url",
        fileArgs(bytes, { requestId, ...change }),
      );
      expect(refused.error?.code, JSON.stringify(change)).toBe("transfer_conflict");
    }
    expect(await counts()).toEqual(before);
  });

  it("keeps the company boundary: other companies' tasks and attachments are not found", async () => {
    const stranger = await strangerCompany(database.db, "Files Stranger");
    const [strangerIssue] = await database.db
      .insert(issues)
      .values({ companyId: stranger.companyId, number: 1, title: "theirs" })
      .returning();
    const bytes = randomBytes(16);
    const foreignTask = await structured(
      conn,
      "paperclip_get_upload_url",
      fileArgs(bytes, { taskId: strangerIssue!.id }),
    );
    expect(foreignTask.error?.code).toBe("not_found");
    const wrongCompany = await structured(
      conn,
      "paperclip_get_upload_url",
      fileArgs(bytes, { companyId: stranger.companyId }),
    );
    expect(wrongCompany.error?.code).toBe("company_not_granted");
    const unknown = await structured(conn, "paperclip_get_download_url", {
      companyId: demo.companyId,
      attachmentId: randomUUID(),
    });
    expect(unknown.error?.code).toBe("not_found");
    const list = await conn.api("list_attachments", { companyId: demo.companyId, taskId: randomUUID() });
    expect((list.error as { code: string }).code).toBe("not_found");
    // An upload URL is not a download URL (and the other way round).
    const url = await uploadUrl(bytes);
    expect((await fetch(local(url.uploadUrl))).status).toBe(404);
  });

  it("answers CORS preflight for the file URLs", async () => {
    const res = await fetch(`${origin}/mcp/files/pcft_x`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
