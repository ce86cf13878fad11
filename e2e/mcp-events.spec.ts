import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { cli, deviceLogin } from "./cli";
import { demoCredentials } from "./credentials";
import { e2eDatabase } from "./db";
import { ExperimentalSettingsPage } from "./pages/experimental-settings";
import { SignInPage } from "./pages/sign-in-page";

// Issue 20 items 1–5 against the running product (a production server): a connection made
// with `mcp login --device` lists the events and is refused a callback on a private address;
// the connection's subscriptions appear on /assistant-connections and a person stops one.
// A production server never reaches a loopback receiver, so the subscription the console
// shows is put in place with SQL (deliveries themselves are proven by
// server/events/events.int.test.ts).
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page);
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("an assistant's event subscriptions are listed on its connection and can be stopped", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const demo = demoCredentials();
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(demo.ownerEmail, demo.ownerPassword);
  await page.waitForURL(/\/c\//);
  await new ExperimentalSettingsPage(page).ensurePublicMcpOn(demo.companyId);

  const home = mkdtempSync(path.join(tmpdir(), "paperclip-e2e-events-"));
  const endpoint = `${baseURL}/mcp/paperclip`;
  const { login, complete } = await deviceLogin(endpoint, demo.companyId, home);
  await page.goto(complete);
  await page.getByTestId("consent-connect").click();
  await expect(page.getByTestId("device-done")).toContainText("Connected");
  expect(await login.done, login.out.stderr).toBe(0);
  const [file] = readdirSync(path.join(home, "mcp"));
  const token = (
    JSON.parse(readFileSync(path.join(home, "mcp", file!), "utf8")) as { tokens: { accessToken: string } }
  ).tokens.accessToken;

  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      result?: Record<string, unknown>;
      error?: { code: number; data?: Record<string, unknown> };
    };
  };
  const list = await rpc("events/list", {});
  expect((list.result!.events as Array<{ name: string }>).map((e) => e.name)).toContain(
    "paperclip.task.status_changed",
  );

  const sql = e2eDatabase();
  try {
    const [task] =
      await sql`select id, number from issues where company_id = ${demo.companyId} order by number limit 1`;
    // The production server refuses a callback on a private address (after admitting the attempt).
    const refused = await rpc("events/subscribe", {
      name: "paperclip.task.comment_created",
      arguments: { companyId: demo.companyId, taskId: task!.id },
      delivery: {
        mode: "webhook",
        url: "https://10.0.0.1/hook",
        secret: `whsec_${Buffer.alloc(32, 3).toString("base64")}`,
      },
    });
    expect(refused.error).toMatchObject({ code: -32015, data: { reason: "connection_refused" } });

    const [grant] =
      await sql`select g.id, g.user_id from oauth_grants g join oauth_clients c on c.id = g.client_id
      where g.company_id = ${demo.companyId} and g.revoked_at is null and c.client_name like 'Paperclip CLI%'
      order by g.created_at desc limit 1`;
    const subId = `sub_${"e2e0".repeat(8)}`;
    await sql`delete from mcp_event_subscriptions where id = ${subId}`;
    // The console never reads the ciphertext: a placeholder stands in for it.
    await sql`insert into mcp_event_subscriptions
      (id, company_id, grant_id, user_id, event_name, task_id, arguments, delivery_encrypted, state, activated_at, expires_at, last_delivery_at, delivered_count)
      values (${subId}, ${demo.companyId}, ${grant!.id}, ${grant!.user_id}, 'paperclip.task.status_changed', ${task!.id},
        ${sql.json({ companyId: demo.companyId, taskId: task!.id })},
        ${sql.json({ ciphertext: "x", iv: "x", authTag: "x", keyId: "x" })},
        'active', now(), now() + interval '1 day', now() - interval '5 minutes', 3)`;

    await page.goto("/assistant-connections");
    const connection = page.getByTestId("assistant-connection").filter({ hasText: "Paperclip CLI" }).first();
    await connection.getByTestId("connection-subscriptions-toggle").click();
    const row = connection.getByTestId("connection-subscription").first();
    await expect(row).toContainText("Status changes");
    await expect(row).toContainText(`-${task!.number}`);
    await expect(row.getByTestId("connection-subscription-state")).toHaveText("active");
    await page.screenshot({ path: "test-results/mcp-events-1-subscriptions.png" });
    await row.getByTestId("connection-subscription-stop").click();
    await connection.getByTestId("connection-subscription-confirm-confirm").click();
    await expect(row.getByTestId("connection-subscription-state")).toHaveText("stopped");
    await page.screenshot({ path: "test-results/mcp-events-2-stopped.png" });
    const [after] = await sql`select state, stopped_reason from mcp_event_subscriptions where id = ${subId}`;
    expect(after).toMatchObject({ state: "stopped", stopped_reason: "stopped_by_person" });
  } finally {
    await sql.end();
  }
  // Leave nothing behind: logout revokes the connection (its subscriptions stop delivering).
  expect(await cli(["logout", "--url", endpoint], home).done).toBe(0);
});
