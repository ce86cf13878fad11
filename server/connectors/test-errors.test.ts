import { describe, expect, it } from "vitest";
import { type ErrorCode, ServiceError } from "../errors";
import { CONNECTION_TEST_ERRORS, classifyUpstreamError } from "./test-errors";

const CANARY = "canary-raw-upstream-text";

describe("classifyUpstreamError", () => {
  it.each([
    [
      new ServiceError("upstream_unreachable", `x ${CANARY}`, { code: "ECONNREFUSED" }),
      "upstream_unreachable",
    ],
    [new ServiceError("upstream_unreachable", CANARY, { code: "CERT_HAS_EXPIRED" }), "upstream_tls_error"],
    [
      new ServiceError("upstream_unreachable", CANARY, { code: "ERR_TLS_CERT_ALTNAME_INVALID" }),
      "upstream_tls_error",
    ],
    [new ServiceError("upstream_timeout", CANARY), "upstream_timeout"],
    [new ServiceError("upstream_blocked", CANARY), "upstream_blocked"],
    [new ServiceError("upstream_requires_operator", CANARY), "upstream_requires_operator"],
    [new ServiceError("upstream_redirect_refused", CANARY), "upstream_redirect_refused"],
    [new ServiceError("upstream_too_large", CANARY), "upstream_too_large"],
    [new ServiceError("upstream_auth_failed", CANARY, { httpStatus: 401 }), "upstream_auth_failed"],
    [
      new ServiceError("upstream_error", CANARY, { httpStatus: 500, note: CANARY }),
      "upstream_protocol_error",
    ],
    [new ServiceError("something_new" as ErrorCode, CANARY), "upstream_protocol_error"],
    [new Error(CANARY), "upstream_unreachable"],
    [CANARY, "upstream_unreachable"],
  ])("maps %s to %s with our own sentence only", (err, code) => {
    const out = classifyUpstreamError(err);
    expect(out.code).toBe(code);
    expect(out.message).toBe(CONNECTION_TEST_ERRORS[code as keyof typeof CONNECTION_TEST_ERRORS]);
    expect(JSON.stringify(out)).not.toContain(CANARY);
  });

  it("passes our own runtime/configuration codes through with a generic sentence", () => {
    const out = classifyUpstreamError(new ServiceError("runtime_host_untrusted", CANARY));
    expect(out.code).toBe("runtime_host_untrusted");
    expect(out.message).not.toContain(CANARY);
  });

  it("keeps only numeric facts in details", () => {
    const out = classifyUpstreamError(
      new ServiceError("upstream_error", CANARY, { httpStatus: 500, mcpCode: "x" }),
    );
    expect(out.details).toEqual({ httpStatus: 500 });
  });
});
