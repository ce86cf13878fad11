import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import type { ConsentView } from "@/server/contracts/public-mcp";
import { ConsentForm } from "./ConsentForm";

afterEach(cleanup);

const view = (name: string | null): ConsentView => ({
  kind: "browser",
  requestId: "00000000-0000-4000-8000-0000000000c1",
  client: { name, selfReported: true, origin: null, clientId: "pcoc_x", logo: null },
  scopes: ["paperclip:read"],
  wantsWrite: false,
  pinnedCompanyId: null,
  organizations: [
    {
      id: "00000000-0000-4000-8000-000000000001",
      name: "Acme",
      role: "owner",
      available: true,
      canWrite: true,
      writeDisabledReason: null,
    },
  ],
  expiresAt: "2026-12-03T11:00:00.000Z",
});

// Issue 34: a client_name with U+202E (RIGHT-TO-LEFT OVERRIDE) reversed the rest of the heading,
// "to Paperclip" included. The name is isolated in <bdi>, so it cannot reorder what follows.
it("isolates the client-chosen name in the consent heading", () => {
  const hostile = "Claude \u202Eyppa\u202C";
  render(<ConsentForm view={view(hostile)} />);
  const name = screen.getByTestId("consent-client-name");
  expect(name.tagName).toBe("BDI");
  expect(name.textContent).toBe(hostile);
  const heading = screen.getByTestId("consent-heading");
  expect(heading.firstChild?.textContent).toBe("Connect ");
  expect(heading.lastChild?.textContent).toBe(" to Paperclip");
});
