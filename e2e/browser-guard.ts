import type { Page } from "@playwright/test";

/**
 * Collects what must never happen on a page: Content-Security-Policy violations (the page CSP
 * allows scripts by nonce only, docs/security.md) and, when `consoleErrors` is on, any console
 * error or uncaught exception.
 */
export async function guardBrowser(page: Page, opts: { consoleErrors?: boolean } = {}) {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `[csp-violation] ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (/\[csp-violation\]|Content Security Policy/i.test(text)) problems.push(`CSP: ${text}`);
    else if (opts.consoleErrors) problems.push(`console error: ${text}`);
  });
  page.on("pageerror", (err) => {
    if (opts.consoleErrors) problems.push(`page error: ${err.message}`);
  });
  return problems;
}
