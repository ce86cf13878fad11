/** `npm run cli -- rotate-master-key`: every encrypted value re-encrypted under a new master key. */
import { existsSync, renameSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companySecretVersions } from "@/db/schema";
import { ENCRYPTED_JSON_COLUMNS, rotateJsonColumn } from "./encrypted-columns";
import {
  generateMasterKey,
  LocalSecretProvider,
  loadMasterKey,
  MASTER_KEY_ENV,
  MASTER_KEY_FILE,
  type MasterKey,
  masterKeyPath,
  NEXT_MASTER_KEY_FILE,
  parseMasterKey,
  readMasterKeyFile,
  resetLocalProvider,
  writeMasterKeyFile,
} from "./local-provider";
import { type Log, silent } from "./maintenance";

export interface RotationReport {
  mode: "file" | "env";
  oldKeyId: string;
  newKeyId: string;
  reencrypted: number;
  alreadyCurrent: number;
  /** File mode: where the old key was moved. */
  retiredKeyFile: string | null;
}

export const NEW_MASTER_KEY_ENV = "PAPERCLIP_NEW_MASTER_KEY";

/**
 * Re-encrypts every secret version under a new master key in one transaction.
 *
 * File mode: the new key is written to `master.key.next` (0600) before the database changes
 * (a rerun after a crash reuses it), and after the commit `master.key` is renamed to
 * `master.key.retired-<old key id>` and `master.key.next` to `master.key`.
 * Env mode (`PAPERCLIP_MASTER_KEY` set): the new key comes from `PAPERCLIP_NEW_MASTER_KEY`; no
 * file is touched and the operator swaps the variable afterwards.
 * Stop the app while rotating: a running process keeps the old key until restarted.
 */
export async function rotateMasterKey(
  db: Db,
  /** `pageSize`: rows per keyset page of each encrypted column (tests use a small one). */
  opts: { log?: Log; pageSize?: number } = {},
): Promise<RotationReport> {
  const log = opts.log ?? silent;
  const envMode = Boolean(process.env[MASTER_KEY_ENV]?.trim());
  let oldKey: MasterKey;
  let newKey: MasterKey;
  const currentFile = masterKeyPath(MASTER_KEY_FILE);
  const nextFile = masterKeyPath(NEXT_MASTER_KEY_FILE);
  if (envMode) {
    oldKey = loadMasterKey();
    const next = process.env[NEW_MASTER_KEY_ENV]?.trim();
    if (!next) {
      throw new Error(
        `${MASTER_KEY_ENV} is set, so the new key must come from your secret store too: set ${NEW_MASTER_KEY_ENV} ` +
          "to a new key (`openssl rand -base64 32`), rerun, then replace the value of " +
          `${MASTER_KEY_ENV} with it and unset ${NEW_MASTER_KEY_ENV}`,
      );
    }
    newKey = parseMasterKey(next, `the ${NEW_MASTER_KEY_ENV} environment variable`);
  } else {
    if (!existsSync(currentFile)) {
      throw new Error(
        `${currentFile} does not exist: there is no master key to rotate (one is created on first use)`,
      );
    }
    oldKey = readMasterKeyFile(currentFile);
    if (existsSync(nextFile)) {
      newKey = readMasterKeyFile(nextFile);
      log(`• resuming an interrupted rotation with the key in ${nextFile}`);
    } else {
      writeMasterKeyFile(nextFile, generateMasterKey());
      newKey = readMasterKeyFile(nextFile);
      log(`• new master key written to ${nextFile} (mode 0600)`);
    }
  }
  if (oldKey.keyId === newKey.keyId) throw new Error("the new master key is the same as the current one");
  const from = new LocalSecretProvider(oldKey);
  const to = new LocalSecretProvider(newKey);

  const { reencrypted, alreadyCurrent } = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(companySecretVersions)
      .orderBy(asc(companySecretVersions.companyId), asc(companySecretVersions.secretId))
      .for("update");
    let changed = 0;
    let current = 0;
    for (const row of rows) {
      if (row.keyId === newKey.keyId) {
        current++;
        continue;
      }
      if (row.keyId !== oldKey.keyId) {
        throw new Error(
          `version ${row.version} of secret ${row.secretId} (company ${row.companyId}) is encrypted with master key ` +
            `\`${row.keyId}\`, which is neither the current key \`${oldKey.keyId}\` nor the new one; nothing was changed`,
        );
      }
      const encrypted = to.encrypt(from.decrypt(row), row);
      await tx.update(companySecretVersions).set(encrypted).where(eq(companySecretVersions.id, row.id));
      changed++;
    }
    // Every other column encrypted with the master key (reviewed arguments, kept results, …),
    // from the one registry doctor reads too; legacy clear values are encrypted on the way.
    for (const column of ENCRYPTED_JSON_COLUMNS) {
      const n = await rotateJsonColumn(
        tx,
        column,
        {
          from,
          to,
          oldKeyId: oldKey.keyId,
          newKeyId: newKey.keyId,
        },
        opts.pageSize,
      );
      changed += n.changed;
      current += n.current;
      if (n.changed > 0)
        log(`• re-encrypted ${n.changed} value(s) of ${column.label} (${column.name}) in ${n.pages} page(s)`);
    }
    return { reencrypted: changed, alreadyCurrent: current };
  });
  log(
    `• re-encrypted ${reencrypted} value(s) in all — secret versions and every registered encrypted column — from key ${oldKey.keyId} to ${newKey.keyId}`,
  );

  let retiredKeyFile: string | null = null;
  if (!envMode) {
    retiredKeyFile = masterKeyPath(`${MASTER_KEY_FILE}.retired-${oldKey.keyId}`);
    renameSync(currentFile, retiredKeyFile);
    renameSync(nextFile, currentFile);
    log(`• ${currentFile} now holds key ${newKey.keyId}; the old key was moved to ${retiredKeyFile}`);
    log(
      "  delete the retired key once you no longer need to read database backups taken before this rotation",
    );
  } else {
    log(`• now set ${MASTER_KEY_ENV} to the value of ${NEW_MASTER_KEY_ENV} and unset ${NEW_MASTER_KEY_ENV}`);
  }
  resetLocalProvider();
  log("• restart the app so every process loads the new key");
  return {
    mode: envMode ? "env" : "file",
    oldKeyId: oldKey.keyId,
    newKeyId: newKey.keyId,
    reencrypted,
    alreadyCurrent,
    retiredKeyFile,
  };
}
