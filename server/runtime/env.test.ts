import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { argProblem, buildChildEnv, envKeyProblem, resolveCommand, SAFE_PATH_DIRS, safePath } from "./env";

describe("envKeyProblem", () => {
  it.each(["API_TOKEN", "_X", "A1", "HOME", "LAB_ALLOWED", `A${"B".repeat(63)}`])("accepts %s", (k) => {
    expect(envKeyProblem(k)).toBeNull();
  });
  it.each([
    "PATH",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONPATH",
    "BASH_ENV",
    "PAPERCLIP_MASTER_KEY",
    "DATABASE_URL",
    "AUTH_SECRET",
    "lower",
    "1ABC",
    "A-B",
    "",
    `A${"B".repeat(64)}`,
  ])("refuses %s", (k) => {
    expect(envKeyProblem(k)).not.toBeNull();
  });
});

describe("argProblem", () => {
  it("refuses NUL and more than 4096 bytes (counted in UTF-8)", () => {
    expect(argProblem("ok")).toBeNull();
    expect(argProblem("a\0b")).toContain("NUL");
    expect(argProblem("x".repeat(4096))).toBeNull();
    expect(argProblem("é".repeat(2049))).toContain("4096");
  });
});

describe("resolveCommand", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "resolve-cmd-"));
  const exe = path.join(dir, "node");
  writeFileSync(exe, "#!/bin/sh\n");
  chmodSync(exe, 0o755);
  const plain = path.join(dir, "plain");
  writeFileSync(plain, "x");
  chmodSync(plain, 0o644);
  const open = path.join(dir, "open");
  writeFileSync(open, "#!/bin/sh\n");
  chmodSync(open, 0o777);

  it("resolves an allow-listed interpreter through the given PATH (relative entries ignored)", () => {
    expect(resolveCommand("node", `relative:${dir}:/usr/bin`)).toEqual({ ok: true, command: exe });
    expect(resolveCommand("python3", dir)).toMatchObject({ ok: false });
  });
  it("refuses other bare names, relative paths, missing, non-executable and world-writable files", () => {
    expect(resolveCommand("bash", dir)).toMatchObject({ ok: false });
    expect(resolveCommand("./node", dir)).toMatchObject({ ok: false });
    expect(resolveCommand(path.join(dir, "missing"))).toMatchObject({ ok: false });
    expect(resolveCommand(plain)).toMatchObject({ ok: false });
    expect(resolveCommand(open)).toMatchObject({
      ok: false,
      message: expect.stringContaining("world-writable"),
    });
    expect(resolveCommand(dir)).toMatchObject({ ok: false });
    expect(resolveCommand(`${exe}\0`)).toMatchObject({ ok: false });
  });
  it("normalizes an absolute path", () => {
    expect(resolveCommand(`${dir}/../${path.basename(dir)}/node`)).toEqual({ ok: true, command: exe });
  });
});

describe("buildChildEnv", () => {
  it("holds only the allowed keys present in the host env, the secrets and a fixed PATH", () => {
    const env = buildChildEnv(
      "/opt/tool/bin/server",
      ["ALLOWED", "ABSENT", "PATH"],
      { API_TOKEN: "s3cret" },
      { ALLOWED: "yes", CANARY: "leak", PATH: "/evil", HOME: "/root" },
    );
    expect(env).toEqual({
      ALLOWED: "yes",
      API_TOKEN: "s3cret",
      PATH: ["/opt/tool/bin", ...SAFE_PATH_DIRS].join(":"),
    });
  });
  it("refuses a secret aimed at a forbidden variable", () => {
    expect(() => buildChildEnv("/usr/bin/node", [], { LD_PRELOAD: "/x.so" }, {})).toThrow(/LD_PRELOAD/);
  });
  it("never repeats a directory in PATH", () => {
    expect(
      safePath("/usr/bin/node")
        .split(":")
        .filter((d) => d === "/usr/bin"),
    ).toHaveLength(1);
  });
});
