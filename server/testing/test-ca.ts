/**
 * A throwaway certificate authority and a server certificate it signed, for tests that need a
 * real TLS server (the webhook receiver): the client trusts `caPem` and nothing else, so a
 * test proves the CA is required rather than switching verification off.
 *
 * Made with the `openssl` CLI (1.1.1 or 3.x; no shell, our own config file so the host's
 * openssl.cnf plays no part) in a temporary directory. EC P-256 keys keep it fast. One CA per
 * directory per process: `createTestCa()` returns the same one on every call in a test file.
 */

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { processSingleton } from "../config/process-singleton";

export interface TestCa {
  /** The CA certificate (PEM): what a client trusts. */
  caPem: string;
  /** The server certificate (PEM), for `localhost`, `127.0.0.1` and `::1` (subjectAltName). */
  certPem: string;
  /** The server certificate's private key (PEM). */
  keyPem: string;
  /** The directory holding the files (made for this CA). */
  dir: string;
  /** Removes the directory and forgets the cached CA (idempotent). */
  cleanup(): void;
}

const SERVER_HOSTS = { dns: ["localhost"], ip: ["127.0.0.1", "::1"] };

// `prompt = no` with a `[dn]` section: `req` reads the subject from here and never asks.
function config(cn: string): string {
  const san = [...SERVER_HOSTS.dns.map((d) => `DNS:${d}`), ...SERVER_HOSTS.ip.map((ip) => `IP:${ip}`)];
  return [
    "[req]",
    "distinguished_name = dn",
    "prompt = no",
    "[dn]",
    `CN = ${cn}`,
    "[ca_ext]",
    "basicConstraints = critical,CA:TRUE",
    "keyUsage = critical,keyCertSign,cRLSign",
    "subjectKeyIdentifier = hash",
    "[server_ext]",
    "basicConstraints = critical,CA:FALSE",
    "keyUsage = critical,digitalSignature,keyEncipherment",
    "extendedKeyUsage = serverAuth",
    `subjectAltName = ${san.join(",")}`,
    "subjectKeyIdentifier = hash",
    "authorityKeyIdentifier = keyid,issuer",
    "",
  ].join("\n");
}

function openssl(dir: string, cnf: string, args: string[]): void {
  try {
    execFileSync("openssl", args, {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      // The host's default config (and a stray OPENSSL_CONF) must not change what we make.
      env: { ...process.env, OPENSSL_CONF: cnf },
    });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim() ?? "";
    throw new Error(`openssl ${args[0]} failed: ${stderr || (e as Error).message}`);
  }
}

function makeCa(dir: string, forget: () => void): TestCa {
  const tag = randomBytes(4).toString("hex");
  const caCnf = path.join(dir, "ca.cnf");
  const serverCnf = path.join(dir, "server.cnf");
  writeFileSync(caCnf, config(`Paperclip test CA ${tag}`));
  writeFileSync(serverCnf, config("localhost"));
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(dir, caCnf, [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-sha256",
    "-config",
    caCnf,
    "-extensions",
    "ca_ext",
  ]);
  openssl(dir, serverCnf, [
    "req",
    "-new",
    ...ec,
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
    "-config",
    serverCnf,
  ]);
  openssl(dir, serverCnf, [
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-set_serial",
    `0x${randomBytes(8).toString("hex")}`,
    "-out",
    "server.pem",
    "-days",
    "2",
    "-sha256",
    "-extfile",
    serverCnf,
    "-extensions",
    "server_ext",
  ]);
  const read = (name: string) => readFileSync(path.join(dir, name), "utf8");
  let cleaned = false;
  return {
    caPem: read("ca.pem"),
    certPem: read("server.pem"),
    keyPem: read("server.key"),
    dir,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      forget();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const cache = () => processSingleton("testing.test-ca", () => new Map<string, TestCa>());

/**
 * The process's test CA: created on the first call, the same object afterwards until its
 * `cleanup()`. Its files go in a new temporary directory under `dir` (by default the system's
 * temporary directory), so `cleanup()` never removes anything it did not make; a CA under the
 * default directory is also removed when the process exits.
 */
export function createTestCa(dir?: string): TestCa {
  const key = dir ? path.resolve(dir) : "";
  const cached = cache().get(key);
  if (cached) return cached;
  if (dir) mkdirSync(key, { recursive: true });
  const target = mkdtempSync(path.join(dir ? key : tmpdir(), "paperclip-test-ca-"));
  const ca: TestCa = makeCa(target, () => {
    if (cache().get(key) === ca) cache().delete(key);
  });
  cache().set(key, ca);
  process.once("exit", () => ca.cleanup());
  return ca;
}
