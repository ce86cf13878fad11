import { and, asc, count, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import {
  companies,
  companySecretVersions,
  mcpEventSubscriptions,
  toolActionRequests,
  toolInvocations,
  toolUpstreamAuthStates,
  toolUpstreamClients,
  toolUpstreamGrants,
} from "@/db/schema";
import { canonicalJson } from "../ledger/canonical";
import { upstreamClientRef, upstreamGrantRef, upstreamStateRef } from "../upstream-auth/store";
import { eventDeliveryRef } from "./event-delivery";
import { ledgerKeyRef } from "./ledger-key";
import type { EncryptedSecret, LocalSecretProvider, SecretVersionRef } from "./local-provider";
import { keptResultRef } from "./replay-result";
import { reviewedArgsRef } from "./reviewed-args";

/**
 * Every database column encrypted with the master key, in one list: `rotate-master-key`
 * re-encrypts each of them and `doctor` checks each one's key (ARCHITECTURE.md "Encrypted
 * data"). `encrypted-columns.test.ts` scans the schema for encrypted-looking columns
 * (`*_encrypted` jsonb, a `ciphertext` column) and fails when one is missing here, so a new
 * encrypted column cannot be forgotten by rotation.
 *
 * `company_secret_versions` keeps its ciphertext in columns of its own (`ciphertext`, `iv`,
 * `auth_tag`, `key_id`) and is rotated with them (`rotate.ts`); every other encrypted column
 * is one jsonb `{ciphertext, iv, authTag, keyId}` bound to its company and row.
 */
export interface EncryptedJsonColumn {
  /** `table.column`, as in the database. */
  name: string;
  /** What operators read in doctor and rotation output. */
  label: string;
  table: PgTable;
  column: PgColumn;
  id: PgColumn;
  companyId: PgColumn;
  /** Where a row's ciphertext is bound (the GCM additional data). */
  ref: (companyId: string, id: string) => SecretVersionRef;
  /** A legacy column holding the same value in clear, encrypted (and cleared) by rotation. */
  legacyClear?: { column: PgColumn; key: string; plaintext: (value: unknown) => string };
}

/** The columns with their own ciphertext fields (rotated row by row in `rotate.ts`). */
export const ENCRYPTED_ROW_TABLES = [
  { name: "company_secret_versions", table: companySecretVersions },
] as const;

export const ENCRYPTED_JSON_COLUMNS: readonly EncryptedJsonColumn[] = [
  {
    name: "tool_action_requests.reviewed_args_encrypted",
    label: "reviewed arguments of action requests",
    table: toolActionRequests,
    column: toolActionRequests.reviewedArgsEncrypted,
    id: toolActionRequests.id,
    companyId: toolActionRequests.companyId,
    ref: reviewedArgsRef,
    legacyClear: { column: toolActionRequests.reviewedArgs, key: "reviewedArgs", plaintext: canonicalJson },
  },
  {
    name: "tool_invocations.result_encrypted",
    label: "kept first answers of invocations (replays)",
    table: toolInvocations,
    column: toolInvocations.resultEncrypted,
    id: toolInvocations.id,
    companyId: toolInvocations.companyId,
    ref: keptResultRef,
  },
  {
    name: "mcp_event_subscriptions.delivery_encrypted",
    label: "callback URLs and signing secrets of event subscriptions",
    table: mcpEventSubscriptions,
    column: mcpEventSubscriptions.deliveryEncrypted,
    id: mcpEventSubscriptions.id,
    companyId: mcpEventSubscriptions.companyId,
    ref: eventDeliveryRef,
  },
  {
    name: "tool_upstream_clients.client_encrypted",
    label: "upstream OAuth clients (secrets and private keys)",
    table: toolUpstreamClients,
    column: toolUpstreamClients.clientEncrypted,
    id: toolUpstreamClients.id,
    companyId: toolUpstreamClients.companyId,
    ref: upstreamClientRef,
  },
  {
    name: "tool_upstream_grants.tokens_encrypted",
    label: "upstream OAuth grants (access and refresh tokens)",
    table: toolUpstreamGrants,
    column: toolUpstreamGrants.tokensEncrypted,
    id: toolUpstreamGrants.id,
    companyId: toolUpstreamGrants.companyId,
    ref: upstreamGrantRef,
  },
  {
    name: "tool_upstream_auth_states.verifier_encrypted",
    label: "upstream OAuth authorizations in progress (PKCE verifiers)",
    table: toolUpstreamAuthStates,
    column: toolUpstreamAuthStates.verifierEncrypted,
    id: toolUpstreamAuthStates.id,
    companyId: toolUpstreamAuthStates.companyId,
    ref: upstreamStateRef,
  },
  {
    name: "companies.ledger_key_encrypted",
    label: "companies' ledger keys (HMACs of idempotency keys)",
    table: companies,
    column: companies.ledgerKeyEncrypted,
    id: companies.id,
    companyId: companies.id,
    ref: ledgerKeyRef,
  },
];

const jsonKey = (c: EncryptedJsonColumn) => c.column.name as string;
const propKey = (c: EncryptedJsonColumn) =>
  Object.entries(c.table).find(([, v]) => v === c.column)?.[0] ?? jsonKey(c);

/** Rows per keyset page when rotating a column. */
export const ROTATION_PAGE_SIZE = 500;

/**
 * Re-encrypts one column's values from `from` to `to` in the caller's transaction (rows
 * locked `FOR UPDATE`, a page of `pageSize` at a time), encrypting any legacy clear value on
 * the way. Returns the counts; a value under a key that is neither the old nor the new one
 * stops the whole rotation.
 */

export async function rotateJsonColumn(
  tx: Tx,
  c: EncryptedJsonColumn,
  keys: { from: LocalSecretProvider; to: LocalSecretProvider; oldKeyId: string; newKeyId: string },
  pageSize = ROTATION_PAGE_SIZE,
): Promise<{ changed: number; current: number; pages: number }> {
  const legacy = c.legacyClear;
  const where: SQL = legacy
    ? sql`(${c.column} is not null or ${legacy.column} is not null)`
    : isNotNull(c.column);
  let changed = 0;
  let current = 0;
  let pages = 0;
  // Keyset pages on (company, id), so a large table (kept results) is never loaded whole; every
  // page is locked and rewritten in the caller's one transaction.
  let after: { companyId: string; id: string } | null = null;
  for (;;) {
    const rows = (await tx
      .select({
        id: c.id,
        companyId: c.companyId,
        enc: c.column,
        ...(legacy ? { clear: legacy.column } : {}),
      })
      .from(c.table)
      .where(after ? and(where, sql`(${c.companyId}, ${c.id}) > (${after.companyId}, ${after.id})`) : where)
      .orderBy(asc(c.companyId), asc(c.id))
      .limit(pageSize)
      .for("update")) as { id: string; companyId: string; enc: EncryptedSecret | null; clear?: unknown }[];
    if (rows.length === 0) break;
    pages++;
    const n = await rotateRows(tx, c, keys, rows);
    changed += n.changed;
    current += n.current;
    if (rows.length < pageSize) break;
    const last = rows[rows.length - 1]!;
    after = { companyId: last.companyId, id: last.id };
  }
  return { changed, current, pages };
}

/** One page of a column's rows re-encrypted (see `rotateJsonColumn`). */
async function rotateRows(
  tx: Tx,
  c: EncryptedJsonColumn,
  keys: { from: LocalSecretProvider; to: LocalSecretProvider; oldKeyId: string; newKeyId: string },
  rows: { id: string; companyId: string; enc: EncryptedSecret | null; clear?: unknown }[],
): Promise<{ changed: number; current: number }> {
  const legacy = c.legacyClear;
  let changed = 0;
  let current = 0;
  for (const r of rows) {
    const ref = c.ref(r.companyId, r.id);
    const enc = r.enc;
    const hasClear = legacy !== undefined && r.clear !== null && r.clear !== undefined;
    if (enc?.keyId === keys.newKeyId && !hasClear) {
      current++;
      continue;
    }
    if (enc && enc.keyId !== keys.oldKeyId && enc.keyId !== keys.newKeyId) {
      throw new Error(
        `the ${c.label} of row ${r.id} (company ${r.companyId}, ${c.name}) are encrypted with master key ` +
          `\`${enc.keyId}\`, which is neither the current key \`${keys.oldKeyId}\` nor the new one; nothing was changed`,
      );
    }
    const plaintext = enc
      ? (enc.keyId === keys.newKeyId ? keys.to : keys.from).decrypt({ ...enc, ...ref })
      : legacy!.plaintext(r.clear);
    await tx
      .update(c.table)
      .set({
        [propKey(c)]: { ...keys.to.encrypt(plaintext, ref) },
        ...(legacy ? { [legacy.key]: null } : {}),
      })
      .where(companyRow(c, r.companyId, r.id));
    changed++;
  }
  return { changed, current };
}

/** For doctor: how many values of a column each master key id encrypted. */
export async function keyIdsOf(
  db: Db,
  c: EncryptedJsonColumn,
  companyId?: string,
): Promise<{ keyId: string; n: number }[]> {
  const keyId = sql<string>`${c.column} ->> 'keyId'`;
  const rows = await db
    .select({ keyId, n: count() })
    .from(c.table)
    .where(and(isNotNull(c.column), ...(companyId ? [eq(c.companyId, companyId)] : [])))
    .groupBy(keyId);
  return rows.map((r) => ({ keyId: r.keyId, n: Number(r.n) }));
}
