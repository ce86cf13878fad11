import { describe, expect, it } from "vitest";
import { isServiceError } from "../errors";
import { assertNoInlineCredentials, findInlineCredentials, scanInlineCredentials } from "./inline";

const paths = (config: unknown) => findInlineCredentials(config).map((f) => `${f.path} ${f.reason}`);

describe("findInlineCredentials", () => {
  it("accepts a clean config", () => {
    expect(
      findInlineCredentials({
        url: "https://mcp.example.com/v1?region=eu",
        timeoutMs: 30_000,
        maxTokens: 4096,
        tokenUrl: "https://auth.example.com/oauth/token",
        headers: { "User-Agent": "paperclip", Accept: "application/json", Authorization: "" },
        env: { LOG_LEVEL: "debug" },
        args: ["--read-only"],
      }),
    ).toEqual([]);
    expect(findInlineCredentials(null)).toEqual([]);
    expect(findInlineCredentials("https://example.com")).toEqual([]);
  });

  it("flags credential headers by name, whatever the case", () => {
    expect(
      paths({
        headers: {
          Authorization: "Bearer abc",
          cookie: "session=1",
          "X-API-Key": "k",
          "api-key": "k",
          "X-Access-Token": "t",
          "X-Client-Secret": "s",
          "X-Password": "p",
          "Proxy-Authorization": "Basic x",
        },
      }),
    ).toEqual([
      "/headers/Authorization sensitive_header",
      "/headers/cookie sensitive_header",
      "/headers/X-API-Key sensitive_header",
      "/headers/api-key sensitive_header",
      "/headers/X-Access-Token sensitive_header",
      "/headers/X-Client-Secret sensitive_header",
      "/headers/X-Password sensitive_header",
      "/headers/Proxy-Authorization sensitive_header",
    ]);
  });

  it("flags header lists ({name, value}) and nested header maps", () => {
    expect(
      paths({
        upstream: {
          headers: [
            { name: "Accept", value: "*/*" },
            { name: "authorization", value: "token x" },
          ],
        },
      }),
    ).toEqual(["/upstream/headers/1/value sensitive_header"]);
  });

  it("flags URLs with userinfo or credential query parameters", () => {
    expect(
      paths({
        a: "https://user:pass@mcp.example.com/",
        b: "https://mcp.example.com/?token=abc",
        c: "https://mcp.example.com/?key=abc",
        d: "https://mcp.example.com/?api_key=abc",
        e: "wss://mcp.example.com/?x=1&access_token=abc",
        f: "https://mcp.example.com/?token=",
      }),
    ).toEqual([
      "/a url_userinfo",
      "/b url_query_credential",
      "/c url_query_credential",
      "/d url_query_credential",
      "/e url_query_credential",
    ]);
  });

  it("flags provider-token shaped values anywhere", () => {
    const values = {
      stripe: "sk_live_abcdefghijklmnop",
      github: "ghp_abcdefghijklmnopqrstuvwxyz0123",
      slack: "xoxb-1234567890-abcdefghij",
      aws: "AKIAIOSFODNN7EXAMPLE",
      jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      bearer: "Bearer abcdefghijklmnop",
    };
    expect(paths({ opts: values, args: ["--token-file", "ghp_abcdefghijklmnopqrstuvwxyz0123"] })).toEqual([
      "/opts/stripe token_shaped_value",
      "/opts/github token_shaped_value",
      "/opts/slack token_shaped_value",
      "/opts/aws token_shaped_value",
      "/opts/jwt token_shaped_value",
      "/opts/bearer token_shaped_value",
      "/args/1 token_shaped_value",
    ]);
    // A harmless-named header carrying a token is still caught.
    expect(paths({ headers: { "X-Custom": "ghp_abcdefghijklmnopqrstuvwxyz0123" } })).toEqual([
      "/headers/X-Custom token_shaped_value",
    ]);
  });

  it("flags sensitive env vars and credential fields", () => {
    expect(
      paths({
        env: { GITHUB_TOKEN: "x", DB_PASSWORD: "y", OPENAI_API_KEY: "z", LOG_LEVEL: "info", EMPTY_TOKEN: "" },
        auth: { password: "p", clientSecret: "c", apiKey: "k" },
      }),
    ).toEqual([
      "/env/GITHUB_TOKEN sensitive_env_var",
      "/env/DB_PASSWORD sensitive_env_var",
      "/env/OPENAI_API_KEY sensitive_env_var",
      "/auth/password sensitive_key",
      "/auth/clientSecret sensitive_key",
      "/auth/apiKey sensitive_key",
    ]);
  });

  it("escapes JSON-pointer segments and never includes values", () => {
    const findings = scanInlineCredentials({ "a/b": { "x~y": "ghp_abcdefghijklmnopqrstuvwxyz0123" } });
    expect(findings.map((f) => f.path)).toEqual(["/a~1b/x~0y"]);
    expect(
      JSON.stringify(findInlineCredentials({ headers: { Authorization: "Bearer s3cr3t-v4lue" } })),
    ).not.toContain("s3cr3t");
  });
});

describe("assertNoInlineCredentials", () => {
  it("throws 400 inline_secret naming the path and pointing at company secrets", () => {
    expect(() => assertNoInlineCredentials({ url: "https://mcp.example.com" })).not.toThrow();
    try {
      assertNoInlineCredentials({
        url: "https://mcp.example.com/?token=s3cr3t",
        headers: { Authorization: "Bearer s3cr3t-v4lue" },
      });
      throw new Error("expected a throw");
    } catch (err) {
      expect(isServiceError(err)).toBe(true);
      if (!isServiceError(err)) return;
      expect(err.status).toBe(400);
      expect(err.code).toBe("inline_secret");
      expect(err.message).toContain("`/url`");
      expect(err.message).toContain("(and 1 more)");
      expect(err.message).toContain("store it as a company secret and bind it to the connection");
      expect(err.details).toEqual({
        findings: [
          { path: "/url", reason: "url_query_credential" },
          { path: "/headers/Authorization", reason: "sensitive_header" },
        ],
      });
      expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain("s3cr3t");
    }
  });
});
