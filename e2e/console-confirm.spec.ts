import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { connectAgent, holdSendForApproval, startAgentRun } from "./agent-run";
import { demoCredentials } from "./credentials";
import { RuntimePage } from "./pages/runtime-page";
import { SignInPage } from "./pages/sign-in-page";

// Issue 21, items 7 and 10 and deliverable 5: approve, decline, stop and restart ask first,
// the approval card reads what happened, and runtime slots name their connection.

const SHOTS = "/tmp/confirm-shots";

async function expectNoSeriousAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

function trackConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

test("approve from the card with a note: the card reads approved, by whom, the note and the result", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const errors = trackConsoleErrors(page);
  const creds = demoCredentials();
  const boardHeaders = { authorization: `Bearer ${creds.boardApiKey}`, "content-type": "application/json" };
  const installed = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/examples/outbox/install`, {
    method: "POST",
    headers: boardHeaders,
  });
  expect([201, 409]).toContain(installed.status);
  const issues = (await (
    await fetch(`${baseURL}/api/companies/${creds.companyId}/issues`, { headers: boardHeaders })
  ).json()) as { issues: { id: string; title: string }[] };
  const issue = issues.issues.find((i) => i.title.startsWith("Draft release notes"))!;
  const agent = creds.agents[1]!;
  const run = await startAgentRun(baseURL!, agent, issue.id);
  const client = await connectAgent(run, "e2e-confirm");
  const gated = await holdSendForApproval(client, {
    to: "beta@example.com",
    subject: "Confirmations",
    body: "Asked first.",
  });
  const { actionRequestId } = gated;
  await client.close();

  await new SignInPage(page).signInAsOwner(creds);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/c/${creds.companyId}/issues/${issue.id}`);
  const card = page.locator(`#action-${actionRequestId}`);
  await expect(card.getByTestId("action-card-title")).toHaveText("Approve outbox__send_email?");

  // Approve asks first; Escape cancels without deciding.
  await card.getByTestId("action-approve").click();
  const dialog = card.getByTestId("action-approve-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText("Approve outbox__send_email?");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(card).toHaveAttribute("data-status", "pending");
  await expect(card.getByTestId("action-approve")).toBeFocused();

  await card.getByTestId("action-approve").click();
  await dialog.getByTestId("action-approve-dialog-note").fill("Checked the recipient list");
  await page.screenshot({ path: `${SHOTS}/approve-dialog-1440.png` });
  await expectNoSeriousAxe(page);
  await dialog.getByTestId("action-approve-dialog-confirm").click();
  await expect(dialog).toBeHidden();
  await expect(card).toHaveAttribute("data-status", "approved");
  await expect(card.getByTestId("action-card-title")).toHaveText("Approved — outbox__send_email can run");
  await expect(card.getByTestId("action-card-decider")).toHaveText("Ada Owner");
  await expect(card.getByTestId("action-card-note")).toHaveText("Checked the recipient list");

  await card.getByTestId("action-execute").click();
  await expect(card).toHaveAttribute("data-status", "executed");
  await expect(card.getByTestId("action-card-title")).toHaveText("Approved — ran outbox__send_email");
  await expect(card.getByTestId("action-card-result")).toBeVisible();
  await expect(card.getByTestId("action-card-result-copy")).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/action-card-executed-1440.png`, fullPage: true });

  // After a reload the card still says who approved, the note, and can show the recorded result.
  await page.reload();
  await expect(card.getByTestId("action-card-decider")).toHaveText("Ada Owner");
  await expect(card.getByTestId("action-card-note")).toHaveText("Checked the recipient list");
  await card.getByTestId("action-card-show-result").click();
  await expect(card.getByTestId("action-card-result")).toContainText("Result (recorded earlier)");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/action-card-executed-390.png`, fullPage: true });
  await expectNoSeriousAxe(page);
  expect(errors).toEqual([]);
});

test("a stdio slot names its connection and host; restart and stop ask first", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const errors = trackConsoleErrors(page);
  const creds = demoCredentials();
  const headers = { authorization: `Bearer ${creds.boardApiKey}`, "content-type": "application/json" };
  const installed = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/examples/lab/install`, {
    method: "POST",
    headers,
  });
  expect([201, 409]).toContain(installed.status);
  // The smoke checks call the lab's tools, which starts its supervised process.
  const smoke = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/examples/lab/smoke`, {
    method: "POST",
    headers,
    body: "{}",
  });
  expect(smoke.ok).toBe(true);
  const slots = (await (
    await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/runtime-slots?status=live`, { headers })
  ).json()) as { slots: { id: string; status: string }[] };
  const slotId = slots.slots[0]!.id;

  await new SignInPage(page).signInAsOwner(creds);
  await page.setViewportSize({ width: 1440, height: 900 });
  const runtime = new RuntimePage(page);
  await runtime.goto(creds.companyId);
  const row = runtime.slot(slotId);
  await expect(row.getByTestId("slot-connection")).not.toHaveText("");
  await expect(row.getByTestId("slot-host")).toContainText("Server host:");
  await expectNoSeriousAxe(page);

  // Restart: cancel first (nothing happens), then confirm.
  let dialog = await runtime.ask(slotId, "restart");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("slot-restart-dialog-cancel").click();
  await expect(dialog).toBeHidden();
  dialog = await runtime.ask(slotId, "restart");
  await page.screenshot({ path: `${SHOTS}/slot-restart-dialog-1440.png` });
  await dialog.getByTestId("slot-restart-dialog-confirm").click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveAttribute("data-status", /running|idle|starting/);

  dialog = await runtime.ask(slotId, "stop");
  await expect(dialog).toContainText("The next call to one of its tools starts it again");
  await dialog.getByTestId("slot-stop-dialog-confirm").click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveAttribute("data-status", "stopped");
  // A stopped slot still has an action: test the connection, which starts a new process.
  await expect(row.getByTestId("slot-start")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/runtime-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/runtime-390.png`, fullPage: true });
  await expectNoSeriousAxe(page);
  expect(errors).toEqual([]);
});
