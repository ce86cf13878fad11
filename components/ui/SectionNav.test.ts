// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { revealActiveItem } from "./SectionNav";

// happy-dom does no layout: the geometry is set by hand, as a 390 px screen would give it.
function list(activeLeft: number, width = 100, clientWidth = 300): HTMLElement {
  const ul = document.createElement("ul");
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.setAttribute("aria-current", "page");
  li.append(a);
  ul.append(li);
  Object.defineProperty(li, "offsetLeft", { value: activeLeft });
  Object.defineProperty(li, "offsetWidth", { value: width });
  Object.defineProperty(ul, "clientWidth", { value: clientWidth });
  return ul;
}

describe("revealActiveItem", () => {
  it("scrolls a tab past the right edge into view, centred", () => {
    const ul = list(700);
    revealActiveItem(ul);
    expect(ul.scrollLeft).toBe(600);
  });

  it("leaves a visible tab where it is", () => {
    const ul = list(50);
    revealActiveItem(ul);
    expect(ul.scrollLeft).toBe(0);
  });

  it("does nothing without a current tab", () => {
    const ul = document.createElement("ul");
    revealActiveItem(ul);
    expect(ul.scrollLeft).toBe(0);
  });
});
