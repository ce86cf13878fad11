import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "@playwright/test";

const BIN = path.join(process.cwd(), "scripts", "paperclipai.mjs");

/** `paperclipai mcp <args>` in a child process with its own PAPERCLIP_HOME; output collected. */
export function cli(args: string[], home: string) {
  const child = spawn(process.execPath, [BIN, "mcp", ...args], {
    env: { ...process.env, PAPERCLIP_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => {
    out.stdout += d;
  });
  child.stderr.on("data", (d) => {
    out.stderr += d;
  });
  const done = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { out, done };
}

/**
 * Starts `mcp login --device` and waits until it printed the verification URL and user code;
 * the caller approves on /mcp-device (`complete`) and awaits `login.done`.
 */
export async function deviceLogin(endpoint: string, companyId: string, home: string) {
  const login = cli(["login", "--device", "--url", endpoint, "--company", companyId], home);
  await expect
    .poll(() => /\(or open (\S+)\)/.exec(login.out.stderr)?.[1] ?? null, { timeout: 60_000 })
    .not.toBeNull();
  const complete = /\(or open (\S+)\)/.exec(login.out.stderr)![1]!;
  const userCode = /enter the code\s+([A-Z]{4}-[A-Z]{4})/.exec(login.out.stderr)![1]!;
  return { login, complete, userCode };
}
