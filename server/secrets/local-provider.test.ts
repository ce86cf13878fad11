import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  type EncryptedSecret,
  LocalSecretProvider,
  loadMasterKey,
  localProvider,
  MASTER_KEY_ENV,
  masterKeyId,
  parseMasterKey,
  resetLocalProvider,
  SecretProviderError,
  type SecretVersionRef,
} from "./local-provider";

const home = mkdtempSync(path.join(tmpdir(), "pc-secrets-unit-"));
process.env.PAPERCLIP_HOME = home;
delete process.env[MASTER_KEY_ENV];
const keyFile = path.join(home, "master.key");

const ref: SecretVersionRef = {
  companyId: "11111111-1111-4111-8111-111111111111",
  secretId: "22222222-2222-4222-8222-222222222222",
  version: 1,
};

function freshProvider(): LocalSecretProvider {
  const key = randomBytes(32);
  return new LocalSecretProvider({ key, keyId: masterKeyId(key), source: "test" });
}

function flipFirstByte(b64: string): string {
  const buf = Buffer.from(b64, "base64");
  buf[0] = buf[0]! ^ 0x01;
  return buf.toString("base64");
}

function expectProviderError(fn: () => unknown, code: string, message?: RegExp) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SecretProviderError);
    expect((err as SecretProviderError).code).toBe(code);
    if (message) expect((err as Error).message).toMatch(message);
    return err as SecretProviderError;
  }
  throw new Error(`expected a ${code} error`);
}

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

beforeEach(() => {
  delete process.env[MASTER_KEY_ENV];
  resetLocalProvider();
});

describe("AES-256-GCM", () => {
  it("round-trips values, with a fresh 12-byte IV each time", () => {
    const p = freshProvider();
    for (const value of [
      "x",
      "ghp_abcdefghijklmnopqrstuvwxyz0123",
      "ünïcødé ✓\nline 2",
      "a".repeat(16 * 1024),
    ]) {
      const enc = p.encrypt(value, ref);
      expect(Buffer.from(enc.iv, "base64")).toHaveLength(12);
      expect(Buffer.from(enc.authTag, "base64")).toHaveLength(16);
      expect(enc.keyId).toBe(p.keyId);
      // A 1-character value's 4-character base64 ciphertext contains it by chance ~6% of the
      // time; the check means something only for values long enough not to occur at random.
      if (value.length >= 8) expect(enc.ciphertext).not.toContain(value.slice(0, 8));
      expect(p.decrypt({ ...enc, ...ref })).toBe(value);
    }
    const a = p.encrypt("same", ref);
    const b = p.encrypt("same", ref);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("fails authentication when the ciphertext, IV or tag is altered", () => {
    const p = freshProvider();
    const enc = p.encrypt("s3cret-value", ref);
    const tampered: EncryptedSecret[] = [
      { ...enc, ciphertext: flipFirstByte(enc.ciphertext) },
      { ...enc, iv: flipFirstByte(enc.iv) },
      { ...enc, authTag: flipFirstByte(enc.authTag) },
    ];
    for (const t of tampered) expectProviderError(() => p.decrypt({ ...t, ...ref }), "decrypt_failed");
    // A truncated tag is refused outright (GCM would otherwise accept short tags).
    const short = Buffer.from(enc.authTag, "base64").subarray(0, 4).toString("base64");
    expectProviderError(() => p.decrypt({ ...enc, authTag: short, ...ref }), "decrypt_failed", /malformed/);
  });

  it("binds a ciphertext to its company, secret and version (additional data)", () => {
    const p = freshProvider();
    const enc = p.encrypt("bound", ref);
    const moved: SecretVersionRef[] = [
      { ...ref, companyId: "33333333-3333-4333-8333-333333333333" },
      { ...ref, secretId: "44444444-4444-4444-8444-444444444444" },
      { ...ref, version: 2 },
    ];
    for (const r of moved) {
      const err = expectProviderError(
        () => p.decrypt({ ...enc, ...r }),
        "decrypt_failed",
        /moved from another/,
      );
      expect(err.message).not.toContain("bound");
    }
  });

  it("a value encrypted under another master key fails with a clear key-mismatch message", () => {
    const a = freshProvider();
    const b = freshProvider();
    const enc = a.encrypt("value", ref);
    const err = expectProviderError(() => b.decrypt({ ...enc, ...ref }), "key_mismatch");
    expect(err.message).toContain(a.keyId);
    expect(err.message).toContain(b.keyId);
    expect(err.message).toContain(MASTER_KEY_ENV);
    // A forged key id on the row does not help either: the key really differs.
    expectProviderError(() => b.decrypt({ ...enc, keyId: b.keyId, ...ref }), "decrypt_failed");
  });
});

describe("master key", () => {
  it("is created on first use with mode 0600, 32 random bytes, key id = sha256 prefix", () => {
    rmSync(keyFile, { force: true });
    expectProviderError(() => loadMasterKey(), "master_key_missing");
    expect(existsSync(keyFile)).toBe(false);
    const key = loadMasterKey({ create: true });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const raw = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
    expect(raw).toHaveLength(32);
    expect(key.key.equals(raw)).toBe(true);
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(key.keyId).toBe(masterKeyId(raw));
    // Loading again returns the same key (never overwritten).
    expect(loadMasterKey({ create: true }).keyId).toBe(key.keyId);
    const p = localProvider();
    expect(p.keyId).toBe(key.keyId);
    expect(p.decrypt({ ...p.encrypt("v", ref), ...ref })).toBe("v");
  });

  it("is refused when its group or other users can read it", () => {
    loadMasterKey({ create: true });
    chmodSync(keyFile, 0o644);
    try {
      const err = expectProviderError(() => loadMasterKey(), "master_key_insecure", /0644/);
      expect(err.message).toContain(`chmod 600 ${keyFile}`);
      expectProviderError(() => localProvider({ create: true }), "master_key_insecure");
      chmodSync(keyFile, 0o640);
      expectProviderError(() => loadMasterKey(), "master_key_insecure", /0640/);
    } finally {
      chmodSync(keyFile, 0o600);
    }
    expect(loadMasterKey().keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("rejects a key file that is not 32 base64 bytes, without echoing it", () => {
    const bad = path.join(home, "bad-key");
    writeFileSync(bad, "not-a-key!!", { mode: 0o600 });
    expectProviderError(() => parseMasterKey(readFileSync(bad, "utf8"), bad), "master_key_invalid");
    const short = randomBytes(16).toString("base64");
    const err = expectProviderError(
      () => parseMasterKey(short, "somewhere"),
      "master_key_invalid",
      /16 bytes/,
    );
    expect(err.message).not.toContain(short);
  });

  it("PAPERCLIP_MASTER_KEY overrides the file", () => {
    const fileKey = loadMasterKey({ create: true });
    const envKey = randomBytes(32);
    process.env[MASTER_KEY_ENV] = envKey.toString("base64");
    resetLocalProvider();
    const p = localProvider();
    expect(p.keyId).toBe(masterKeyId(envKey));
    expect(p.keyId).not.toBe(fileKey.keyId);
    const enc = p.encrypt("from-env", ref);
    expect(enc.keyId).toBe(masterKeyId(envKey));
    expect(p.decrypt({ ...enc, ...ref })).toBe("from-env");

    process.env[MASTER_KEY_ENV] = "short";
    resetLocalProvider();
    const err = expectProviderError(() => localProvider(), "master_key_invalid", /PAPERCLIP_MASTER_KEY/);
    expect(err.message).not.toContain("short");
  });
});
