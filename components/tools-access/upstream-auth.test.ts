import { describe, expect, it } from "vitest";
import { parseScopes, returnToOf, upstreamOAuthErrorText, upstreamOAuthReturnOf } from "./upstream-auth";

describe("upstream OAuth helpers", () => {
  it("splits scopes on commas and spaces and drops repeats", () => {
    expect(parseScopes(" mcp, admin  offline_access,,mcp ")).toEqual(["mcp", "admin", "offline_access"]);
    expect(parseScopes("  ")).toEqual([]);
  });

  it("comes back to the same page without a previous callback's outcome", () => {
    expect(
      returnToOf({
        pathname: "/c/x/settings/tools/connections",
        search: "?connection=abc&upstream_oauth_error=upstream_oauth_refused",
        hash: "#authorization",
      }),
    ).toBe("/c/x/settings/tools/connections?connection=abc#authorization");
    expect(returnToOf({ pathname: "/account", search: "?upstream_oauth=connected" })).toBe("/account");
  });

  it("reads the callback's outcome, an error winning over success", () => {
    expect(upstreamOAuthReturnOf({ upstream_oauth: "connected" })).toEqual({ status: "connected" });
    expect(upstreamOAuthReturnOf({ upstream_oauth: "connected", upstream_oauth_error: "x" })).toEqual({
      status: "error",
      code: "x",
    });
    expect(upstreamOAuthReturnOf({})).toBeNull();
  });

  it("has a sentence for every documented code and for an unknown one", () => {
    expect(upstreamOAuthErrorText("upstream_oauth_state_invalid")).toMatch(/expired/);
    expect(upstreamOAuthErrorText("something_new")).toBe("The authorization did not complete.");
  });
});
