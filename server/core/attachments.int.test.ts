/**
 * Issue attachments against PostgreSQL: the verbs and the REST routes (raw-body upload, list,
 * download) with both storage providers, the limits, and the company boundary.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as downloadRoute from "@/app/api/attachments/[attachmentId]/content/route";
import * as attachmentRoute from "@/app/api/attachments/[attachmentId]/route";
import * as attachmentsRoute from "@/app/api/issues/[issueId]/attachments/route";
import * as schema from "@/db/schema";
import { activityLog, attachmentBlobs, issueAttachments } from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import {
  closeDemoWorld,
  demoWorld,
  issueOf,
  ownerSession,
  strangerCompany,
  type TestDatabase,
} from "@/server/testing/world";
import type { ServiceContext } from "../context";
import { attachmentLimits, cleanFilename, contentDisposition, STORE_PIECE_BYTES } from "./attachment-storage";
import { createAttachment, listIssueAttachments, readAttachment } from "./attachments";

let database: TestDatabase;
let demo: DemoCredentials;
let owner: { id: string; email: string; cookie: string };
let issueId: string;
let stranger: Awaited<ReturnType<typeof strangerCompany>>;

const ORIGIN = "http://localhost:3100";
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  const world = await demoWorld({ home: "pc-attachments-" });
  database = world.database;
  demo = world.demo;
  owner = await ownerSession(database.db, demo);
  issueId = await issueOf(database.db, demo.companyId, demo.agents[0]!.id);
  stranger = await strangerCompany(database.db, "Attachment Stranger");
});
afterAll(() => closeDemoWorld(database));
afterEach(() => {
  delete process.env.PAPERCLIP_ATTACHMENT_STORAGE;
  delete process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES;
  delete process.env.PAPERCLIP_ATTACHMENT_TYPES;
});

const ownerCtx = (): ServiceContext => ({
  db: database.db,
  actor: { type: "user", userId: owner.id, email: owner.email },
  requestId: "test",
  now: () => new Date(),
});

type UploadJson = { id: string; error: { code: string } } & Record<string, unknown>;

/** POSTs raw bytes to the upload route (as the browser's upload form does). */
async function upload(
  bytes: Uint8Array,
  opts: {
    type?: string;
    filename?: string;
    cookie?: string;
    token?: string;
    issue?: string;
    sha256?: string;
  } = {},
) {
  const headers = new Headers({ host: "localhost:3100", origin: ORIGIN });
  if (opts.type !== undefined) headers.set("content-type", opts.type);
  headers.set("x-filename", encodeURIComponent(opts.filename ?? "report.pdf"));
  if (opts.sha256) headers.set("x-content-sha256", opts.sha256);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  else headers.set("cookie", opts.cookie ?? owner.cookie);
  const response = await attachmentsRoute.POST(
    new Request(`${ORIGIN}/api/issues/${opts.issue ?? issueId}/attachments`, {
      method: "POST",
      headers,
      body: new Uint8Array(bytes),
    }),
    { params: Promise.resolve({ issueId: opts.issue ?? issueId }) },
  );
  return { status: response.status, json: (await response.json()) as UploadJson };
}

async function download(attachmentId: string, auth: { cookie?: string; token?: string } = {}) {
  const headers = new Headers({ host: "localhost:3100" });
  if (auth.token) headers.set("authorization", `Bearer ${auth.token}`);
  else headers.set("cookie", auth.cookie ?? owner.cookie);
  return downloadRoute.GET(new Request(`${ORIGIN}/api/attachments/${attachmentId}/content`, { headers }), {
    params: Promise.resolve({ attachmentId }),
  });
}

const counts = async () => {
  const [a] = await database.db.select({ n: sql<number>`count(*)::int` }).from(issueAttachments);
  const [b] = await database.db.select({ n: sql<number>`count(*)::int` }).from(attachmentBlobs);
  return { attachments: a!.n, blobs: b!.n };
};

describe("attachment limits and names", () => {
  it("reads the storage, size and type settings, falling back on invalid values", () => {
    expect(attachmentLimits({})).toMatchObject({ storage: "database", maxBytes: 10 * 1024 * 1024 });
    expect(attachmentLimits({}).types).toContain("video/mp4");
    const custom = attachmentLimits({
      PAPERCLIP_ATTACHMENT_STORAGE: "filesystem",
      PAPERCLIP_ATTACHMENT_MAX_BYTES: "2048",
      PAPERCLIP_ATTACHMENT_TYPES: "image/*, text/plain, not a type",
    });
    expect(custom).toEqual({ storage: "filesystem", maxBytes: 2048, types: ["image/*", "text/plain"] });
    expect(attachmentLimits({ PAPERCLIP_ATTACHMENT_MAX_BYTES: "-5" }).maxBytes).toBe(10 * 1024 * 1024);
  });

  it("keeps only the last path segment of a filename and quotes it safely for the header", () => {
    expect(cleanFilename("../../etc/passwd")).toBe("passwd");
    expect(cleanFilename("C:\\Users\\a\\b.txt")).toBe("b.txt");
    expect(cleanFilename("a\u0000b\nc.txt")).toBe("abc.txt");
    expect(cleanFilename("..")).toBe("file");
    expect(contentDisposition('vid "1".mp4')).toBe(
      `attachment; filename="vid _1_.mp4"; filename*=UTF-8''vid%20%221%22.mp4`,
    );
    expect(contentDisposition("café.txt")).toContain("filename*=UTF-8''caf%C3%A9.txt");
  });
});

describe("a large upload is stored in pieces (issue 34: a 9.5 MB upload held the event loop)", () => {
  // postgres.js hex-encodes a bytea parameter synchronously: a 10 MB parameter is one long
  // block of the event loop. A real connection to the test database whose debug hook sees
  // every statement's parameters as sent.
  it("no statement carries more than STORE_PIECE_BYTES, and the stored bytes are exact", async () => {
    let largest = 0;
    const client = postgres(database.url, {
      max: 2,
      onnotice: () => {},
      debug: (_id, _query, parameters: unknown[]) => {
        for (const p of parameters) {
          const size = typeof p === "string" ? p.length : Buffer.isBuffer(p) ? p.byteLength * 2 : 0;
          largest = Math.max(largest, size);
        }
      },
    });
    try {
      const db = drizzle(client, { schema });
      const bytes = randomBytes(Math.floor(9.5 * 1024 * 1024));
      const chunks = Array.from({ length: Math.ceil(bytes.byteLength / 65536) }, (_, i) =>
        bytes.subarray(i * 65536, (i + 1) * 65536),
      );
      for (const storage of ["database", "filesystem"] as const) {
        process.env.PAPERCLIP_ATTACHMENT_STORAGE = storage;
        largest = 0;
        const created = await createAttachment({ ...ownerCtx(), db }, issueId, {
          filename: "big.bin",
          contentType: "application/octet-stream",
          bytes: { chunks, byteSize: bytes.byteLength, sha256: sha(bytes) },
        });
        // Hex: two characters a byte, plus the `\x` prefix.
        expect(largest, storage).toBeLessThanOrEqual(STORE_PIECE_BYTES * 2 + 2);
        const read = await readAttachment(ownerCtx(), created.id);
        expect(read.bytes.equals(bytes), storage).toBe(true);
      }
    } finally {
      await client.end();
    }
  }, 60_000);
});

describe("attachment verbs", () => {
  it("stores a file with its SHA-256 and an activity row, lists it and reads it back", async () => {
    const bytes = Buffer.from("hello attachments");
    const created = await createAttachment(ownerCtx(), issueId, {
      filename: "hello.txt",
      contentType: "text/plain; charset=utf-8",
      bytes,
    });
    expect(created).toMatchObject({
      filename: "hello.txt",
      contentType: "text/plain",
      byteSize: bytes.byteLength,
      sha256: sha(bytes),
      storage: "database",
      uploadedByUserId: owner.id,
    });
    const listed = await listIssueAttachments(ownerCtx(), issueId);
    expect(listed.map((a) => a.id)).toContain(created.id);
    const read = await readAttachment(ownerCtx(), created.id);
    expect(read.bytes.equals(bytes)).toBe(true);
    const [row] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "issue.attachment_add"), eq(activityLog.entityId, issueId)));
    expect(row?.details).toMatchObject({ attachmentId: expect.any(String), sha256: expect.any(String) });
  });

  it("refuses a type outside the list, a file over the limit and a wrong declared hash, storing nothing", async () => {
    const before = await counts();
    const code = (input: Partial<Parameters<typeof createAttachment>[2]>, maxBytes?: string) => {
      if (maxBytes) process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES = maxBytes;
      const file = { filename: "x.txt", contentType: "text/plain", bytes: Buffer.from("a"), ...input };
      return createAttachment(ownerCtx(), issueId, file).then(
        () => "stored",
        (e: { code: string }) => e.code,
      );
    };
    expect(await code({ contentType: "image/svg+xml", bytes: Buffer.from("<svg/>") })).toBe(
      "attachment_type_not_allowed",
    );
    expect(await code({ bytes: Buffer.alloc(11) }, "10")).toBe("attachment_too_large");
    delete process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES;
    expect(await code({ sha256: "0".repeat(64) })).toBe("attachment_hash_mismatch");
    expect(await counts()).toEqual(before);
  });

  it("answers 404 to a person of another company, for the issue and for the attachment", async () => {
    const created = await createAttachment(ownerCtx(), issueId, {
      filename: "secret.txt",
      contentType: "text/plain",
      bytes: Buffer.from("s"),
    });
    const strangerCtx: ServiceContext = {
      ...ownerCtx(),
      actor: { type: "user", userId: stranger.userId, email: "owner@attachment-stranger.example" },
    };
    const code = async (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (e: { code: string }) => e.code,
      );
    expect(await code(listIssueAttachments(strangerCtx, issueId))).toBe("not_found");
    expect(await code(readAttachment(strangerCtx, created.id))).toBe("not_found");
    expect(
      await code(
        createAttachment(strangerCtx, issueId, {
          filename: "x",
          contentType: "text/plain",
          bytes: Buffer.from("x"),
        }),
      ),
    ).toBe("not_found");
  });
});

describe("attachment REST routes", () => {
  for (const storage of ["database", "filesystem"] as const) {
    it(`uploads a raw body and downloads it as an attachment (${storage} storage)`, async () => {
      process.env.PAPERCLIP_ATTACHMENT_STORAGE = storage;
      const bytes = randomBytes(300 * 1024); // over the 256 KiB JSON body limit
      const before = await counts();
      const res = await upload(bytes, {
        type: "application/pdf",
        filename: "Quarterly report é.pdf",
        sha256: sha(bytes),
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json).toMatchObject({
        filename: "Quarterly report é.pdf",
        byteSize: bytes.byteLength,
        storage,
      });
      const after = await counts();
      expect(after.attachments).toBe(before.attachments + 1);
      expect(after.blobs).toBe(before.blobs + (storage === "database" ? 1 : 0));
      if (storage === "filesystem")
        expect(
          existsSync(path.join(process.env.PAPERCLIP_HOME!, "attachments", demo.companyId, res.json.id)),
        ).toBe(true);

      const got = await download(res.json.id);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("application/pdf");
      expect(got.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(sha(new Uint8Array(await got.arrayBuffer()))).toBe(sha(bytes));

      const list = await attachmentsRoute.GET(
        new Request(`${ORIGIN}/api/issues/${issueId}/attachments`, { headers: { cookie: owner.cookie } }),
        { params: Promise.resolve({ issueId }) },
      );
      const { attachments } = (await list.json()) as { attachments: { id: string }[] };
      expect(attachments.map((a) => a.id)).toContain(res.json.id);

      // Deleting removes the row and its bytes.
      const del = await attachmentRoute.DELETE(
        new Request(`${ORIGIN}/api/attachments/${res.json.id}`, {
          method: "DELETE",
          headers: { cookie: owner.cookie, host: "localhost:3100", origin: ORIGIN },
        }),
        { params: Promise.resolve({ attachmentId: res.json.id }) },
      );
      expect(del.status).toBe(200);
      expect(await counts()).toEqual(before);
      if (storage === "filesystem")
        expect(
          existsSync(path.join(process.env.PAPERCLIP_HOME!, "attachments", demo.companyId, res.json.id)),
        ).toBe(false);
    });
  }

  it("never serves HTML inline: an uploaded page downloads as an attachment under a sandbox CSP", async () => {
    const res = await upload(Buffer.from("<script>alert(1)</script>"), {
      type: "text/html",
      filename: "x.html",
    });
    expect(res.status).toBe(201);
    const got = await download(res.json.id);
    expect(got.headers.get("content-type")).toBe("text/html");
    expect(got.headers.get("content-disposition")).toBe(
      `attachment; filename="x.html"; filename*=UTF-8''x.html`,
    );
    expect(got.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("refuses over the limit (early and while streaming), a disallowed type and a missing type", async () => {
    process.env.PAPERCLIP_ATTACHMENT_MAX_BYTES = String(64 * 1024);
    const before = await counts();
    expect((await upload(randomBytes(64 * 1024 + 1), { type: "application/zip" })).json.error.code).toBe(
      "attachment_too_large",
    );
    // A chunked body without content-length is cut off while streaming.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 16 * 1024;
        if (sent > 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const chunked = await attachmentsRoute.POST(
      new Request(`${ORIGIN}/api/issues/${issueId}/attachments`, {
        method: "POST",
        headers: {
          cookie: owner.cookie,
          host: "localhost:3100",
          "content-type": "application/zip",
          "x-filename": "big.zip",
        },
        body: stream,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ issueId }) },
    );
    expect(chunked.status).toBe(413);
    expect(sent).toBeLessThan(1024 * 1024);
    const typed = await upload(Buffer.from("x"), { type: "application/x-msdownload" });
    expect(typed.status).toBe(415);
    expect(typed.json.error.code).toBe("attachment_type_not_allowed");
    expect((await upload(Buffer.from("x"))).json.error.code).toBe("attachment_type_not_allowed");
    expect(await counts()).toEqual(before);
  });

  it("answers 404 across companies on upload, list and download", async () => {
    const mine = await upload(Buffer.from("mine"), { type: "text/plain" });
    expect(mine.status).toBe(201);
    expect((await upload(Buffer.from("x"), { type: "text/plain", token: stranger.boardKey })).status).toBe(
      404,
    );
    expect((await download(mine.json.id, { token: stranger.boardKey })).status).toBe(404);
    expect((await download(mine.json.id, { cookie: stranger.cookie })).status).toBe(404);
    const list = await attachmentsRoute.GET(
      new Request(`${ORIGIN}/api/issues/${issueId}/attachments`, {
        headers: { authorization: `Bearer ${stranger.boardKey}` },
      }),
      { params: Promise.resolve({ issueId }) },
    );
    expect(list.status).toBe(404);
    // The company's own agent key may read its company's attachments.
    expect((await download(mine.json.id, { token: demo.agents[0]!.apiKey })).status).toBe(200);
  });
});
