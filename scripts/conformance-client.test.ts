import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CreateApplicationInput } from "@/server/tools/applications";
import { authorizationFor, slugFor } from "./conformance-client-agent";
import { parseSuiteOutput, QUICK, SCENARIOS, selectScenarios } from "./conformance-client-scenarios";

describe("conformance:client scenario selection", () => {
  it("runs every scenario by default, the quick subset with --quick, and named ones with --scenario", () => {
    expect(selectScenarios([])).toEqual([...SCENARIOS]);
    expect(selectScenarios(["--quick"])).toEqual([...QUICK]);
    expect(selectScenarios(["--scenario", "auth/pre-registration", "--scenario=auth/basic-cimd"])).toEqual([
      "auth/pre-registration",
      "auth/basic-cimd",
    ]);
  });

  it("keeps the quick subset inside the full list", () => {
    for (const s of QUICK) expect(SCENARIOS).toContain(s);
  });
});

describe("conformance:client reading the suite's output", () => {
  it("collects the count line, the failed and warning checks and the agent's error", () => {
    const output = [
      "Stdout:",
      "conformance:client agent, auth/basic-cimd",
      "  ✗ authorization: 404 no route PUT /x on this instance",
      "Test Results:",
      "Passed: 3/4, 1 failed, 1 warnings",
      "",
      "Failed Checks:",
      "  - Token endpoint authentication method: Client used none",
      "    Error: boom",
      "",
      "Warning Checks:",
      "  - Client ID Metadata Document Usage: Client SHOULD use URL-based client ID",
      "",
      "❌ OVERALL: FAILED",
    ].join("\n");
    expect(parseSuiteOutput(output)).toEqual({
      counts: "Passed: 3/4, 1 failed, 1 warnings",
      problems: [
        "Token endpoint authentication method: Client used none",
        "Client ID Metadata Document Usage: Client SHOULD use URL-based client ID",
        "agent: authorization: 404 no route PUT /x on this instance",
      ],
    });
  });
});

describe("conformance:client operator input", () => {
  it("makes application slugs the admin API accepts for every scenario", () => {
    for (const s of SCENARIOS) {
      const slug = slugFor(s, "abc123");
      expect(CreateApplicationInput.shape.slug.safeParse(slug).success, slug).toBe(true);
    }
  });

  it("enters the suite's pre-registered client for pre-registration, else leaves the client to discovery", () => {
    expect(
      authorizationFor("auth/pre-registration", {
        client_id: "pre-registered-client",
        client_secret: "pre-registered-secret",
      }),
    ).toEqual({
      kind: "oauth_company",
      clientId: "pre-registered-client",
      clientSecret: "pre-registered-secret",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(authorizationFor("auth/metadata-default", {})).toEqual({ kind: "oauth_company" });
  });

  it("turns the suite's PKCS#8 key into a private JWK for client-credentials-jwt", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const input = authorizationFor("auth/client-credentials-jwt", {
      client_id: "conformance-test-client",
      private_key_pem: pem,
      signing_algorithm: "ES256",
    });
    const pub = publicKey.export({ format: "jwk" });
    expect(input).toMatchObject({
      kind: "client_credentials",
      clientId: "conformance-test-client",
      tokenEndpointAuthMethod: "private_key_jwt",
      privateKeyJwk: { kty: "EC", crv: "P-256", x: pub.x, y: pub.y, alg: "ES256" },
    });
    expect(typeof input.privateKeyJwk?.d).toBe("string");
  });

  it("uses client_secret_basic with the suite's client for client-credentials-basic", () => {
    expect(
      authorizationFor("auth/client-credentials-basic", {
        client_id: "conformance-test-client",
        client_secret: "conformance-test-secret",
      }),
    ).toEqual({
      kind: "client_credentials",
      clientId: "conformance-test-client",
      clientSecret: "conformance-test-secret",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
  });
});
