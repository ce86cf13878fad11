import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PendingButton } from "./PendingButton";

function render(props: Parameters<typeof PendingButton>[0]): string {
  return renderToStaticMarkup(createElement(PendingButton, props));
}

describe("PendingButton", () => {
  it("shows its children and is enabled while idle", () => {
    const html = render({ pending: false, pendingLabel: "Removing…", children: "Remove" });
    expect(html).toContain(">Remove</button>");
    expect(html).not.toContain('disabled=""');
    expect(html).not.toContain("aria-busy");
  });

  it("shows the pending label, disabled and aria-busy, while pending", () => {
    const html = render({ pending: true, pendingLabel: "Removing…", children: "Remove" });
    expect(html).toContain(">Removing…</button>");
    expect(html).toContain('disabled=""');
    expect(html).toContain('aria-busy="true"');
  });

  it("stays disabled by `disabled` when idle, and passes other props through", () => {
    const testId = { "data-testid": "policy-submit" };
    const html = render({
      ...testId,
      pending: false,
      pendingLabel: "Saving…",
      disabled: true,
      type: "submit",
      "aria-label": "Save the policy",
      children: "Save",
    });
    expect(html).toContain('disabled=""');
    expect(html).toContain('type="submit"');
    expect(html).toContain('aria-label="Save the policy"');
    expect(html).toContain('data-testid="policy-submit"');
    expect(html).not.toContain("aria-busy");
    expect(html).not.toContain("svg");
  });
});
