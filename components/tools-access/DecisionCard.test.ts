import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DecisionCard } from "./DecisionCard";
import type { PolicyTestResult } from "./types";

const base: PolicyTestResult["decision"] = {
  allowed: false,
  visibility: "visible",
  effects: ["block"],
  matchedPolicyIds: [],
  reasonCode: "arguments_invalid",
  explanation: ["arguments do not match the tool's input schema: /value is required"],
  redactionPlan: { arguments: [], result: [] },
  rateLimitState: null,
  retryAfterMs: null,
  trustRuleId: null,
  target: { catalogEntryId: "ce", toolName: "todo__kv_set", risk: "write" },
};

describe("DecisionCard and argument validation", () => {
  it("lists the validator's findings when the arguments do not match the schema", () => {
    const html = renderToStaticMarkup(
      createElement(DecisionCard, {
        result: {
          decision: { ...base, argumentIssues: [{ path: "/value", message: "is required" }] },
          matchedPolicies: [],
        },
      }),
    );
    expect(html).toContain('data-testid="test-argument-issues"');
    expect(html).toContain("/value");
    expect(html).toContain("is required");
    expect(html).toContain('data-outcome="denied"');
  });

  it("shows no findings block for valid arguments", () => {
    const html = renderToStaticMarkup(
      createElement(DecisionCard, {
        result: { decision: { ...base, reasonCode: "allowed" }, matchedPolicies: [] },
      }),
    );
    expect(html).not.toContain("test-argument-issues");
  });
});
