import { QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ConnectionSubscription } from "@/server/contracts/api/public-mcp-events";
import { createQueryClient } from "../providers/QueryProvider";
import { ConnectionSubscriptions, eventLabel, subscriptionsKey } from "./ConnectionSubscriptions";

const GRANT = "44444444-4444-4444-8444-444444444444";
const COMPANY = "11111111-1111-4111-8111-111111111111";
const TASK = "22222222-2222-4222-8222-222222222222";

const row = (id: string, fields: Partial<ConnectionSubscription>): ConnectionSubscription => ({
  id,
  grantId: GRANT,
  companyId: COMPANY,
  eventName: "paperclip.task.status_changed",
  taskId: TASK,
  taskIdentifier: "ACME-12",
  taskTitle: "Quarterly report",
  state: "active",
  stoppedReason: null,
  expiresAt: "2026-12-03T05:00:00.000Z",
  lastDeliveryAt: null,
  lastError: null,
  failedSince: null,
  deliveredCount: 0,
  failedCount: 0,
  pendingDeliveries: 0,
  createdAt: "2026-12-02T03:00:00.000Z",
  ...fields,
});

/** The markup with the list already in the query cache (as after the fetch), or still loading. */
function render(subscriptions?: ConnectionSubscription[]) {
  const client = createQueryClient();
  if (subscriptions) client.setQueryData(subscriptionsKey(GRANT), { subscriptions });
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(ConnectionSubscriptions, { grantId: GRANT }),
    ),
  );
}
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("ConnectionSubscriptions", () => {
  it("shows the loading state before the list arrives", () => {
    expect(render()).toContain('data-testid="connection-subscriptions-loading"');
  });

  it("explains an empty list", () => {
    const html = render([]);
    expect(html).toContain('data-testid="connection-subscriptions-empty"');
    expect(html).toContain("An assistant that supports MCP Events can watch a task");
  });

  it("lists event, task link, state, failures, and Stop only for pending and active ones", () => {
    const html = render([
      row("sub_a", { lastDeliveryAt: "2026-12-02T04:50:00.000Z" }),
      row("sub_b", { state: "pending", eventName: "paperclip.task.comment_created" }),
      row("sub_c", { state: "stopped", stoppedReason: "gone", eventName: "paperclip.task.document_updated" }),
      row("sub_d", { state: "expired", lastError: "http_5xx", failedCount: 3, pendingDeliveries: 2 }),
    ]);
    expect(count(html, 'data-testid="connection-subscription"')).toBe(4);
    expect(count(html, 'data-testid="connection-subscription-stop"')).toBe(2);
    for (const label of ["Status changes", "New comments", "Document updates"]) expect(html).toContain(label);
    expect(html).toContain(`href="/c/${COMPANY}/issues/${TASK}"`);
    expect(html).toContain("ACME-12");
    expect(html).toContain("the assistant ended it");
    expect(html).toContain("3 failed");
    expect(html).toContain("http_5xx");
    expect(html).toContain("2 queued");
    expect(html).toContain("never");
  });

  it("names an event it does not know by its name", () => {
    expect(eventLabel("paperclip.task.unknown")).toBe("paperclip.task.unknown");
  });
});
