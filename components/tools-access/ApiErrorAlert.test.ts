import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiErrorAlert } from "./ApiErrorAlert";

describe("ApiErrorAlert retry", () => {
  it("renders nothing without an error", () => {
    expect(renderToStaticMarkup(createElement(ApiErrorAlert, { error: null, retry: () => {} }))).toBe("");
  });

  it("renders a secondary small 'Try again' button", () => {
    const html = renderToStaticMarkup(
      createElement(ApiErrorAlert, {
        error: new Error("offline"),
        title: "Could not refresh",
        retry: () => {},
      }),
    );
    expect(html).toMatch(/<button type="button" class="[^"]*h-8[^"]*">Try again<\/button>/);
    expect(html).toContain("border-zinc-300");
  });

  it("puts the retry button before other actions", () => {
    const html = renderToStaticMarkup(
      createElement(ApiErrorAlert, {
        error: new Error("offline"),
        retry: () => {},
        actions: createElement("a", { href: "#help" }, "Help"),
      }),
    );
    expect(html.indexOf("Try again")).toBeGreaterThan(-1);
    expect(html.indexOf("Try again")).toBeLessThan(html.indexOf("Help"));
  });
});
