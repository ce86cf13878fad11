import { describe, expect, it } from "vitest";
import { DENIED_ENV_TARGETS } from "../testing/binding-targets";
import { BindSecretInput, checkBindingTarget } from "./bindings";
import { deriveSecretName } from "./migrate-inline";

describe("checkBindingTarget", () => {
  it("accepts HTTP tokens as header names, lower-cased", () => {
    expect(checkBindingTarget("http_header", "Authorization")).toEqual({ ok: true, target: "authorization" });
    expect(checkBindingTarget("http_header", "X-Api-Key")).toEqual({ ok: true, target: "x-api-key" });
  });

  it("refuses framing, hop-by-hop and MCP headers, and non-token names", () => {
    for (const name of [
      "Host",
      "content-length",
      "Transfer-Encoding",
      "CONNECTION",
      "Upgrade",
      "mcp-session-id",
    ])
      expect(checkBindingTarget("http_header", name).ok, name).toBe(false);
    for (const name of ["", "a b", "x:y", "x\r\ny", "é"])
      expect(checkBindingTarget("http_header", name).ok).toBe(false);
  });

  it("accepts env var names and refuses process-control variables", () => {
    expect(checkBindingTarget("env_var", "GITHUB_TOKEN")).toEqual({ ok: true, target: "GITHUB_TOKEN" });
    expect(checkBindingTarget("env_var", "_X")).toEqual({ ok: true, target: "_X" });
    for (const name of [
      "github_token",
      "1ABC",
      "A-B",
      "PATH",
      "LD_PRELOAD",
      "NODE_OPTIONS",
      "DYLD_INSERT_LIBRARIES",
      ...DENIED_ENV_TARGETS,
    ])
      expect(checkBindingTarget("env_var", name).ok, name).toBe(false);
  });

  it("the input schema reports the target issue on the `target` field", () => {
    const r = BindSecretInput.safeParse({
      secretId: "11111111-1111-4111-8111-111111111111",
      placement: "http_header",
      target: "Host",
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["target"]);
    const prefix = BindSecretInput.safeParse({
      secretId: "11111111-1111-4111-8111-111111111111",
      placement: "http_header",
      target: "Authorization",
      valuePrefix: "Bearer\n",
    });
    expect(prefix.success).toBe(false);
  });
});

describe("deriveSecretName", () => {
  it("derives env-style names from the application and the target", () => {
    expect(deriveSecretName("github", "Authorization")).toBe("GITHUB_AUTHORIZATION");
    expect(deriveSecretName("github", "x-api-key")).toBe("GITHUB_X_API_KEY");
    expect(deriveSecretName("github", "GITHUB_TOKEN")).toBe("GITHUB_TOKEN");
    expect(deriveSecretName("my-app", "token")).toBe("MY_APP_TOKEN");
    expect(deriveSecretName("9lives", "key")).toBe("SECRET_9LIVES_KEY");
    expect(deriveSecretName("a", "x".repeat(100))).toMatch(/^[A-Z][A-Z0-9_]{1,63}$/);
  });
});
