import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import { CONNECTION_TEST_ERRORS, classifyUpstreamError } from "./test-errors";

const CANARY = "canary-raw-upstream-text";

describe("classifyUpstreamError", () => {
  it.each([
    [
      new ServiceError("upstream_unreachable", `x ${CANARY}`, 502, { code: "ECONNREFUSED" }),
      "upstream_unreachable",
    ],
    [
      new ServiceError("upstream_unreachable", CANARY, 502, { code: "CERT_HAS_EXPIRED" }),
      "upstream_tls_error",
    ],
    [
      new ServiceError("upstream_unreachable", CANARY, 502, { code: "ERR_TLS_CERT_ALTNAME_INVALID" }),
      "upstream_tls_error",
    ],
    [new ServiceError("upstream_timeout", CANARY, 504), "upstream_timeout"],
    [new ServiceError("upstream_blocked", CANARY, 403), "upstream_blocked"],
    [new ServiceError("upstream_requires_operator", CANARY, 403), "upstream_requires_operator"],
    [new ServiceError("upstream_redirect_refused", CANARY, 502), "upstream_redirect_refused"],
    [new ServiceError("upstream_too_large", CANARY, 502), "upstream_too_large"],
    [new ServiceError("upstream_auth_failed", CANARY, 502, { httpStatus: 401 }), "upstream_auth_failed"],
    [
      new ServiceError("upstream_error", CANARY, 502, { httpStatus: 500, note: CANARY }),
      "upstream_protocol_error",
    ],
    [new ServiceError("something_new", CANARY, 502), "upstream_protocol_error"],
    [new Error(CANARY), "upstream_unreachable"],
    [CANARY, "upstream_unreachable"],
  ])("maps %s to %s with our own sentence only", (err, code) => {
    const out = classifyUpstreamError(err);
    expect(out.code).toBe(code);
    expect(out.message).toBe(CONNECTION_TEST_ERRORS[code as keyof typeof CONNECTION_TEST_ERRORS]);
    expect(JSON.stringify(out)).not.toContain(CANARY);
  });

  it("passes our own runtime/configuration codes through with a generic sentence", () => {
    const out = classifyUpstreamError(new ServiceError("runtime_host_untrusted", CANARY, 403));
    expect(out.code).toBe("runtime_host_untrusted");
    expect(out.message).not.toContain(CANARY);
  });

  it("keeps only numeric facts in details", () => {
    const out = classifyUpstreamError(
      new ServiceError("upstream_error", CANARY, 502, { httpStatus: 500, mcpCode: "x" }),
    );
    expect(out.details).toEqual({ httpStatus: 500 });
  });
});
