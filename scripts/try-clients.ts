/**
 * Real MCP clients beyond the SDK against a running instance's public MCP connection (issue 18;
 * docs/public-mcp.md, "Trying real clients"). Not in CI: it needs the clients installed outside
 * the repo and a server started by hand.
 *
 *   npx tsx scripts/try-clients.ts --origin http://localhost:3223 --home /tmp/oauth2-home \
 *     --codex /tmp/oauth2-deps/node_modules/.bin/codex
 *
 * For Codex CLI it runs `codex mcp add` (with a CODEX_HOME of its own) and `codex mcp login
 * --no-browser`, opens the URL Codex prints in Chromium (Playwright, /usr/bin/chromium), signs
 * the demo owner in (PAPERCLIP_HOME/demo-credentials.json) and approves the consent page; the
 * redirect lands on Codex's loopback callback and Codex stores the tokens. `codex mcp list` then
 * shows the server as logged in. Offline, start the server with PAPERCLIP_PUBLIC_MCP_CIMD=off:
 * Codex otherwise names itself by a CIMD URL on chatgpt.com, which cannot be fetched here.
 *
 * With `--inspector <inspector-cli>/build/index.js` the MCP Inspector CLI (v1 has no OAuth flow
 * of its own, only `--header`) then lists the tools and calls `paperclip_connection` with the
 * access token Codex stored (CODEX_HOME/.credentials.json); the token is never printed.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright";

const { values } = parseArgs({
  options: {
    origin: { type: "string", default: "http://localhost:3223" },
    home: { type: "string", default: process.env.PAPERCLIP_HOME },
    codex: { type: "string", default: "codex" },
    inspector: { type: "string" },
  },
});
const origin = values.origin!;
if (!values.home) throw new Error("--home (the server's PAPERCLIP_HOME) is required");
const creds = JSON.parse(readFileSync(path.join(values.home, "demo-credentials.json"), "utf8")) as {
  ownerEmail: string;
  ownerPassword: string;
};

/** Signs the demo owner in, opens `url` and approves the consent page; resolves with the final URL. */
async function approveInBrowser(url: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/signin`);
    await page.getByTestId("signin-email").fill(creds.ownerEmail);
    await page.getByTestId("signin-password").fill(creds.ownerPassword);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL(/\/c\//, { timeout: 120_000 });
    await page.goto(url);
    await page.getByTestId("mcp-consent").waitFor({ timeout: 120_000 });
    const landed = page.waitForURL((u) => !u.href.startsWith(origin), { timeout: 60_000 });
    await page.getByTestId("consent-connect").click();
    await landed;
    return page.url();
  } finally {
    await browser.close();
  }
}

async function tryCodex(): Promise<string> {
  const codexHome = mkdtempSync(path.join(tmpdir(), "pc-codex-"));
  const env = { ...process.env, CODEX_HOME: codexHome };
  const add = spawnSync(values.codex!, ["mcp", "add", "paperclip", "--url", `${origin}/mcp/paperclip`], {
    env,
    encoding: "utf8",
    // `mcp add` starts a login by itself when it detects OAuth; it gives up on its own.
    timeout: 10_000,
    input: "",
  });
  console.log(`codex mcp add: ${add.status ?? add.signal}`);
  const login = spawn(values.codex!, ["mcp", "login", "paperclip", "--no-browser"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = out.match(/https?:\/\/\S+\/mcp\/oauth\/authorize\?\S+/);
      if (m) resolve(m[0]);
    };
    login.stdout.on("data", onData);
    login.stderr.on("data", onData);
    login.once("exit", (code) => reject(new Error(`codex mcp login exited ${code}:\n${out}`)));
  });
  console.log(`codex printed ${url.slice(0, 120)}…`);
  const landed = await approveInBrowser(url);
  console.log(`Chromium landed on ${new URL(landed).origin}${new URL(landed).pathname}`);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => login.kill(), 60_000);
    login.once("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  console.log(`codex mcp login: exit ${code}\n${out.split("\n").slice(-4).join("\n")}`);
  const list = spawnSync(values.codex!, ["mcp", "list"], { env, encoding: "utf8" });
  console.log(list.stdout);
  if (code !== 0) process.exitCode = 1;
  return codexHome;
}

/** The MCP Inspector CLI with the bearer token Codex obtained. */
function tryInspector(cli: string, codexHome: string): void {
  const stored = JSON.parse(readFileSync(path.join(codexHome, ".credentials.json"), "utf8")) as Record<
    string,
    { access_token: string }
  >;
  const token = Object.values(stored)[0]!.access_token;
  const run = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [
        cli,
        `${origin}/mcp/paperclip`,
        "--transport",
        "http",
        "--header",
        `Authorization: Bearer ${token}`,
        ...args,
      ],
      { encoding: "utf8", timeout: 120_000 },
    );
  const list = run("--method", "tools/list");
  console.log(
    `inspector tools/list: exit ${list.status}, ${list.stdout.match(/"name": "[^"]+"/g)?.join(", ")}`,
  );
  const call = run("--method", "tools/call", "--tool-name", "paperclip_connection");
  const text = (JSON.parse(call.stdout) as { content: { text: string }[] }).content[0]!.text;
  const who = JSON.parse(text) as {
    person: { email: string };
    client: { name: string };
    company: { name: string };
  };
  console.log(
    `inspector tools/call paperclip_connection: exit ${call.status}, ${who.person.email} in ${who.company.name} via ${who.client.name}`,
  );
  if (list.status !== 0 || call.status !== 0) process.exitCode = 1;
}

const codexHome = await tryCodex();
if (values.inspector) tryInspector(values.inspector, codexHome);
