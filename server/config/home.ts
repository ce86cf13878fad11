import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The instance's home directory: embedded database, generated keys, demo credentials. */
export function paperclipHome(): string {
  const home = process.env.PAPERCLIP_HOME?.trim() || path.join(homedir(), ".paperclip");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

/**
 * Reads a secret file under PAPERCLIP_HOME, creating it with a fresh random value (mode 0600)
 * on first use. Used for AUTH_SECRET and the embedded database password.
 */
export function ensureSecretFile(name: string, bytes = 32): string {
  const file = path.join(paperclipHome(), name);
  if (existsSync(file)) {
    const value = readFileSync(file, "utf8").trim();
    if (value.length > 0) return value;
  }
  const value = randomBytes(bytes).toString("base64url");
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "w" });
  chmodSync(file, 0o600);
  return value;
}

/** Writes a JSON file readable only by the owner. */
export function writePrivateJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
