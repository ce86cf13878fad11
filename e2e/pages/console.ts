import type { Page } from "@playwright/test";

/** The signed-in console: shell navigation and the Tools & Access sections. */
export class Console {
  constructor(private readonly page: Page) {}

  nav(name: "issues" | "agents" | "runs" | "tools-access" | "members") {
    return this.page.getByTestId(`nav-${name}`);
  }

  toolsSection(key: string) {
    return this.page.getByTestId(`tools-nav-${key}`);
  }

  heading(name: string) {
    return this.page.getByRole("heading", { name, exact: true });
  }
}
