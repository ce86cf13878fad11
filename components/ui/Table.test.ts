// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { type ComponentProps, createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, COMPANY_ID, issues, NOW, runs } from "@/stories/sample-data";
import { AgentList } from "../agents/AgentList";
import { IssueList } from "../issues/IssueList";
import { RunList } from "../runs/RunList";
import { stackedTableClasses, Table, TBody, TD, TR } from "./Table";

afterEach(cleanup);

/** Every value cell of a stacked table names its column, so the narrow layout can show it. */
function expectLabelledCells(table: HTMLTableElement) {
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
  const rows = [...table.querySelectorAll(":scope > tbody > tr")];
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    [...row.children].forEach((cell, index) => {
      expect(cell.getAttribute("data-label"), `cell ${index} of a row`).toBe(headings[index]);
    });
  }
}

describe("Table stacked", () => {
  it("adds the narrow-screen classes only when asked", () => {
    const label = { "data-label": "Name" } as ComponentProps<"td">;
    const view = render(h(Table, { stacked: true }, h(TBody, null, h(TR, null, h(TD, label, "x")))));
    expect(view.container.querySelector("table")?.className).toContain(stackedTableClasses);
    expect(view.container.querySelector("td")?.getAttribute("data-label")).toBe("Name");
    cleanup();
    const plain = render(h(Table, null, h(TBody, null)));
    expect(plain.container.querySelector("table")?.className).not.toContain("max-md:");
  });

  it("keeps the stacked rules to its own rows (a table nested in a cell is untouched)", () => {
    for (const rule of stackedTableClasses.split(" ").filter((c) => c.includes("td"))) {
      expect(rule).toContain("[&>tbody>tr>td");
    }
  });

  it.each([
    ["agents", () => h(AgentList, { companyId: COMPANY_ID, agents, now: NOW })],
    ["issues", () => h(IssueList, { companyId: COMPANY_ID, issues, now: NOW })],
    ["runs", () => h(RunList, { companyId: COMPANY_ID, runs, now: NOW })],
  ])("the %s list labels each cell with its heading", (_name, make) => {
    const view = render(make());
    const table = view.container.querySelector("table");
    expect(table?.className).toContain(stackedTableClasses);
    expectLabelledCells(table as HTMLTableElement);
  });
});
