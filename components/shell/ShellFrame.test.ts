// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { PathnameContext } from "next/dist/shared/lib/hooks-client-context.shared-runtime";
import { createElement as h, type ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ShellFrame, type ShellFrameProps } from "./ShellFrame";

// The narrow-screen menu's behaviour (#21 item 13). CSS decides what is visible at which width;
// these tests pin the state and the focus that the CSS keys on.
function shell(pathname: string, extra: { defaultOpen?: boolean } = {}): ReactNode {
  return h(
    PathnameContext.Provider,
    { value: pathname },
    h(
      ShellFrame,
      {
        brand: h("a", { href: "/" }, "Paperclip"),
        sidebar: h(
          "nav",
          { "aria-label": "Main" },
          h("a", { href: "/c/1/issues", "data-testid": "first-link" }, "Issues"),
          h("a", { href: "/c/1/agents" }, "Agents"),
        ),
        ...extra,
      } as unknown as ShellFrameProps,
      h("p", null, "content"),
    ),
  );
}

const button = () => screen.getByTestId("shell-menu-button");
const sidebar = () => screen.getByTestId("shell-sidebar");

afterEach(cleanup);

describe("ShellFrame", () => {
  it("starts closed with a button that controls the sidebar", () => {
    render(shell("/c/1/issues"));
    expect(button().getAttribute("aria-expanded")).toBe("false");
    expect(button().getAttribute("aria-controls")).toBe(sidebar().id);
    expect(sidebar().className).toContain("max-md:hidden");
  });

  it("opens on the button and moves focus to the menu's first link", () => {
    render(shell("/c/1/issues"));
    fireEvent.click(button());
    expect(button().getAttribute("aria-expanded")).toBe("true");
    expect(sidebar().dataset.open).toBe("true");
    expect(sidebar().className).not.toContain("max-md:hidden");
    expect(document.activeElement).toBe(screen.getByTestId("first-link"));
  });

  it("closes on Escape and gives focus back to the button", () => {
    render(shell("/c/1/issues"));
    fireEvent.click(button());
    fireEvent.keyDown(document, { key: "Escape" });
    expect(button().getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button());
  });

  it("closes when a link in it is chosen", () => {
    render(shell("/c/1/issues"));
    fireEvent.click(button());
    fireEvent.click(screen.getByText("Agents"));
    expect(button().getAttribute("aria-expanded")).toBe("false");
  });

  it("closes when the path changes (client navigation keeps the layout)", () => {
    const view = render(shell("/c/1/issues", { defaultOpen: true }));
    expect(button().getAttribute("aria-expanded")).toBe("true");
    act(() => view.rerender(shell("/c/1/agents", { defaultOpen: true })));
    expect(button().getAttribute("aria-expanded")).toBe("false");
  });

  it("keeps the main landmark for the content", () => {
    render(shell("/c/1/issues"));
    expect(screen.getByRole("main").textContent).toBe("content");
  });
});
