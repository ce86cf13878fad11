/**
 * The local secret provider: AES-256-GCM with a master key held outside the database.
 *
 * - Master key: `PAPERCLIP_MASTER_KEY` (base64, 32 bytes) when set, else the file
 *   `PAPERCLIP_HOME/master.key` (32 random bytes, base64), created with mode 0600 on first
 *   use. A key file that its group or other users can access is refused.
 * - Key id: the first 16 hex characters of SHA-256 of the key bytes. Stored on every version
 *   row so a value encrypted under another key fails with a clear message, not a GCM error.
 * - Every value is bound to its place by GCM additional data `companyId:secretId:version`: a
 *   ciphertext copied to another secret, version or company does not decrypt.
 *
 * Key rotation (`npm run cli -- rotate-master-key`) writes the new key to `master.key.next`
 * first; while that file exists it is also tried for decryption, so a rotation interrupted
 * after the database commit but before the file swap still decrypts.
 */

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { paperclipHome } from "../config/home";
import { processCell } from "../config/process-singleton";

export const MASTER_KEY_FILE = "master.key";
export const NEXT_MASTER_KEY_FILE = "master.key.next";
export const MASTER_KEY_ENV = "PAPERCLIP_MASTER_KEY";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = "aes-256-gcm";

export type SecretProviderErrorCode =
  | "master_key_missing"
  | "master_key_insecure"
  | "master_key_invalid"
  | "key_mismatch"
  | "decrypt_failed";

/** A provider failure. Messages name files and key ids, never key material or values. */
export class SecretProviderError extends Error {
  constructor(
    readonly code: SecretProviderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SecretProviderError";
  }
}

export const isSecretProviderError = (err: unknown): err is SecretProviderError =>
  err instanceof SecretProviderError;

/** Base64 fields as stored in `company_secret_versions`. */
export interface EncryptedSecret {
  ciphertext: string;
  iv: string;
  authTag: string;
  keyId: string;
}

/** Where a value lives: the GCM additional data binds the ciphertext to it. */
export interface SecretVersionRef {
  companyId: string;
  secretId: string;
  version: number;
}

export interface MasterKey {
  key: Buffer;
  keyId: string;
  /** Human-readable origin for error messages: a file path or the env var name. */
  source: string;
}

export function masterKeyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

export function additionalData(ref: SecretVersionRef): Buffer {
  return Buffer.from(`${ref.companyId}:${ref.secretId}:${ref.version}`, "utf8");
}

/** Decodes a base64 (or base64url) 32-byte key; the message never echoes the input. */
export function parseMasterKey(text: string, source: string): MasterKey {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new SecretProviderError(
      "master_key_invalid",
      `the master key in ${source} is not base64 (expected 32 random bytes, base64-encoded)`,
    );
  }
  const key = Buffer.from(trimmed, "base64");
  if (key.length !== KEY_BYTES) {
    throw new SecretProviderError(
      "master_key_invalid",
      `the master key in ${source} is ${key.length} bytes; it must be exactly ${KEY_BYTES} bytes, base64-encoded`,
    );
  }
  return { key, keyId: masterKeyId(key), source };
}

export function generateMasterKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function masterKeyPath(name = MASTER_KEY_FILE): string {
  return path.join(paperclipHome(), name);
}

/** Refuses a key file its group or other users can access (POSIX only). */
export function assertPrivateFile(file: string): void {
  if (process.platform === "win32") return;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SecretProviderError(
      "master_key_insecure",
      `refusing to use the master key ${file}: its mode is 0${mode.toString(8)}, so other users can read it. ` +
        `Make it private with \`chmod 600 ${file}\` (and consider rotating the key if others may have read it)`,
    );
  }
}

/** Reads a key file after checking its mode. */
export function readMasterKeyFile(file: string): MasterKey {
  assertPrivateFile(file);
  return parseMasterKey(readFileSync(file, "utf8"), file);
}

/** Writes a new key file with mode 0600; fails if the file exists (never overwrites a key). */
export function writeMasterKeyFile(file: string, key: Buffer): void {
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
}

/**
 * The master key: `PAPERCLIP_MASTER_KEY` when set, else `PAPERCLIP_HOME/master.key`. With
 * `create`, a missing file is created (32 random bytes, mode 0600); without it, a missing key
 * is a `master_key_missing` error.
 */
export function loadMasterKey(opts: { create?: boolean } = {}): MasterKey {
  const fromEnv = process.env[MASTER_KEY_ENV]?.trim();
  if (fromEnv) return parseMasterKey(fromEnv, `the ${MASTER_KEY_ENV} environment variable`);
  const file = masterKeyPath();
  if (!existsSync(file)) {
    if (!opts.create) {
      throw new SecretProviderError(
        "master_key_missing",
        `no master key: ${file} does not exist and ${MASTER_KEY_ENV} is not set`,
      );
    }
    try {
      writeMasterKeyFile(file, generateMasterKey());
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return readMasterKeyFile(file);
}

/** Decryption-only keys: `master.key.next` of an interrupted rotation (file mode only). */
function loadExtraKeys(): MasterKey[] {
  if (process.env[MASTER_KEY_ENV]?.trim()) return [];
  const next = masterKeyPath(NEXT_MASTER_KEY_FILE);
  return existsSync(next) ? [readMasterKeyFile(next)] : [];
}

export class LocalSecretProvider {
  private readonly keys: Map<string, MasterKey>;

  constructor(
    private readonly primary: MasterKey,
    extra: readonly MasterKey[] = [],
  ) {
    this.keys = new Map([primary, ...extra].map((k) => [k.keyId, k]));
  }

  /** The id of the key new values are encrypted with. */
  get keyId(): string {
    return this.primary.keyId;
  }

  canDecrypt(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  encrypt(plaintext: string, ref: SecretVersionRef): EncryptedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.primary.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(ref));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return {
      ciphertext: ciphertext.toString("base64"),
      iv: iv.toString("base64"),
      authTag: cipher.getAuthTag().toString("base64"),
      keyId: this.primary.keyId,
    };
  }

  decrypt(row: EncryptedSecret & SecretVersionRef): string {
    const key = this.keys.get(row.keyId);
    if (!key) {
      throw new SecretProviderError(
        "key_mismatch",
        `secret version ${row.version} of secret ${row.secretId} was encrypted with master key \`${row.keyId}\`, ` +
          `but the loaded master key is \`${this.primary.keyId}\` (from ${this.primary.source}). ` +
          `Restore the master key that matches, or set ${MASTER_KEY_ENV} to it`,
      );
    }
    const iv = Buffer.from(row.iv, "base64");
    const tag = Buffer.from(row.authTag, "base64");
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new SecretProviderError(
        "decrypt_failed",
        `secret version ${row.version} of secret ${row.secretId} has a malformed IV or authentication tag`,
      );
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(row));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(Buffer.from(row.ciphertext, "base64")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new SecretProviderError(
        "decrypt_failed",
        `secret version ${row.version} of secret ${row.secretId} failed authentication: its ciphertext, IV or tag ` +
          "was altered, or it was moved from another secret, version or company",
      );
    }
  }
}

const cached = processCell<{ source: string; provider: LocalSecretProvider }>("secretProvider");

function cacheKey(): string {
  const fromEnv = process.env[MASTER_KEY_ENV]?.trim();
  if (fromEnv) return `env:${createHash("sha256").update(fromEnv).digest("hex")}`;
  const home = paperclipHome();
  return `file:${home}:${existsSync(path.join(home, NEXT_MASTER_KEY_FILE)) ? "next" : ""}`;
}

/**
 * The process's provider, loaded once per key source. `create` makes the key file when it is
 * missing (encryption paths only: decryption never invents a key).
 */
export function localProvider(opts: { create?: boolean } = {}): LocalSecretProvider {
  const source = cacheKey();
  const hit = cached.current;
  if (hit && hit.source === source) return hit.provider;
  const provider = new LocalSecretProvider(loadMasterKey(opts), loadExtraKeys());
  cached.current = { source, provider };
  return provider;
}

/** Forgets the cached provider (after a rotation, or in tests that swap keys). */
export function resetLocalProvider(): void {
  cached.current = undefined;
}
