/**
 * Revisioned files (agent instruction files, skill files; db/schema/config.ts): the file row
 * holds the current revision and the body's SHA-256, every write appends an immutable
 * revision row with its author and assistant connection.
 *
 * INVARIANT: an edit is one conditional UPDATE on the revision (or hash) it was based on, and
 * a new file one INSERT … ON CONFLICT DO NOTHING, so of two concurrent edits from the same
 * base exactly one commits and the other gets `409 revision_conflict` — decided by PostgreSQL
 * (the row lock re-checks the WHERE clause), never by a read-then-write in the process.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { actorVia, type ServiceContext } from "../context";
import { MAX_FILE_BODY, MAX_FILE_PATH } from "../contracts/config-values";
import { conflict, invalidRequest, notFound } from "../errors";

export const sha256Hex = (body: string): string => createHash("sha256").update(body, "utf8").digest("hex");

/** A relative file path: `[A-Za-z0-9._/-]`, ≤ 200 characters, no `..`, no leading `/`. */
export const FilePath = z
  .string()
  .min(1)
  .max(MAX_FILE_PATH)
  .regex(/^[A-Za-z0-9._/-]+$/, "a path of letters, digits, `.`, `_`, `/` and `-`")
  .refine((p) => !p.startsWith("/") && !p.includes(".."), "a relative path without `..`");

export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex SHA-256");

/**
 * The body and the base of a write. `baseRevision: null` creates a new file; an existing file
 * needs the `baseRevision` or `baseSha256` it was read at (one of the two must be given).
 */
export const RevisionedWrite = z
  .strictObject({
    body: z.string().max(MAX_FILE_BODY),
    baseRevision: z.number().int().min(1).nullable().optional(),
    baseSha256: Sha256.optional(),
  })
  .refine((w) => w.baseRevision !== undefined || w.baseSha256 !== undefined, {
    message: "pass `baseRevision` (null to create a new file) or `baseSha256` from a read",
    path: ["baseRevision"],
  });
export type RevisionedWrite = z.infer<typeof RevisionedWrite>;

type Col = AnyPgColumn;
/** The columns the helpers need of a file table and its revisions table. */
export interface RevisionedTables {
  files: PgTable & { id: Col; companyId: Col; path: Col; revision: Col; sha256: Col; updatedAt: Col };
  /** The owner column of `files` (`agent_id`, `skill_id`) and its property name. */
  owner: { column: Col; key: "agentId" | "skillId" };
  revisions: PgTable & { companyId: Col; fileId: Col; revision: Col; body: Col; sha256: Col };
}

export interface FileHead {
  path: string;
  revision: number;
  sha256: string;
  updatedAt: Date;
}

const headColumns = (t: RevisionedTables) => ({
  path: t.files.path,
  revision: t.files.revision,
  sha256: t.files.sha256,
  updatedAt: t.files.updatedAt,
});

const ofOwner = (t: RevisionedTables, companyId: string, ownerId: string) =>
  and(eq(t.files.companyId, companyId), eq(t.owner.column, ownerId));

/** The files of one owner (path order), without bodies. */
export async function listHeads(
  db: Tx,
  t: RevisionedTables,
  companyId: string,
  ownerId: string,
): Promise<FileHead[]> {
  return (await db
    .select(headColumns(t))
    .from(t.files as PgTable)
    .where(ofOwner(t, companyId, ownerId))
    .orderBy(asc(t.files.path))
    .limit(200)) as unknown as FileHead[];
}

/** One file's current revision with its body; 404 naming `entity` when there is none. */
export async function readCurrent(
  db: Tx,
  t: RevisionedTables,
  companyId: string,
  ownerId: string,
  path: string,
  entity: string,
): Promise<FileHead & { body: string }> {
  const [row] = await db
    .select({ ...headColumns(t), body: t.revisions.body })
    .from(t.files as PgTable)
    .innerJoin(
      t.revisions as PgTable,
      and(
        eq(t.revisions.companyId, t.files.companyId),
        eq(t.revisions.fileId, t.files.id),
        eq(t.revisions.revision, t.files.revision),
      ),
    )
    .where(and(ofOwner(t, companyId, ownerId), eq(t.files.path, path)));
  if (!row) throw notFound(entity);
  return row as unknown as FileHead & { body: string };
}

/** Who wrote a revision: the person (or the board key's creator) or the agent, and the connection. */
function authorOf(ctx: ServiceContext) {
  const a = ctx.actor;
  return {
    authorUserId: a.type === "user" ? a.userId : a.type === "board_key" ? a.userId : null,
    authorAgentId: a.type === "agent" || a.type === "agent_key" ? a.agentId : null,
    via: actorVia(a),
  };
}

/**
 * Writes a new revision of `path` (creating the file when `baseRevision` is null). Call in the
 * verb's transaction. Returns the new head and whether the file was created.
 */
export async function writeRevision(
  tx: Tx,
  ctx: ServiceContext,
  t: RevisionedTables,
  companyId: string,
  ownerId: string,
  path: string,
  write: RevisionedWrite,
): Promise<FileHead & { created: boolean }> {
  // Routes and operations validate the path already; the verb refuses one on its own too.
  if (!FilePath.safeParse(path).success)
    throw invalidRequest("a file path is relative, of letters, digits, `.`, `_`, `/` and `-`, without `..`");
  const sha256 = sha256Hex(write.body);
  const creating = write.baseRevision === null && write.baseSha256 === undefined;
  let head: { id: string; revision: number } | undefined;
  if (creating) {
    [head] = (await tx
      .insert(t.files)
      .values({ companyId, [t.owner.key]: ownerId, path, revision: 1, sha256 } as never)
      .onConflictDoNothing()
      .returning({ id: t.files.id, revision: t.files.revision })) as { id: string; revision: number }[];
  } else {
    const base =
      write.baseSha256 !== undefined
        ? eq(t.files.sha256, write.baseSha256)
        : eq(t.files.revision, write.baseRevision as number);
    [head] = (await tx
      .update(t.files)
      .set({ revision: sql`${t.files.revision} + 1`, sha256, updatedAt: ctx.now() } as never)
      .where(and(ofOwner(t, companyId, ownerId), eq(t.files.path, path), base))
      .returning({ id: t.files.id, revision: t.files.revision })) as { id: string; revision: number }[];
  }
  if (!head) {
    const [current] = (await tx
      .select(headColumns(t))
      .from(t.files as PgTable)
      .where(and(ofOwner(t, companyId, ownerId), eq(t.files.path, path)))) as unknown as FileHead[];
    if (!current && !creating) throw notFound("file");
    throw conflict(
      "revision_conflict",
      creating
        ? `\`${path}\` already exists; read it and pass its revision`
        : `\`${path}\` changed since the revision the edit was based on; read it again`,
      current ? { current: { revision: current.revision, sha256: current.sha256 } } : undefined,
    );
  }
  await tx.insert(t.revisions).values({
    companyId,
    fileId: head.id,
    revision: head.revision,
    body: write.body,
    sha256,
    ...authorOf(ctx),
  } as never);
  return { path, revision: head.revision, sha256, updatedAt: ctx.now(), created: creating };
}
