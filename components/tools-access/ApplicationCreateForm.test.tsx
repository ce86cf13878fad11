import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { descriptionOf, recordingApi, renderWithApi } from "../test/form-harness";
import { ApplicationCreateForm } from "./ApplicationCreateForm";

const COMPANY = "c-1";
afterEach(cleanup);

describe("ApplicationCreateForm", () => {
  test("shows the schema's errors on their fields and sends nothing", async () => {
    const api = recordingApi();
    renderWithApi(<ApplicationCreateForm companyId={COMPANY} />, api.fetcher);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Create application" }));
    const name = screen.getByLabelText(/^Name/);
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(descriptionOf(name)).toContain("Give the application a name.");
    expect(descriptionOf(screen.getByLabelText(/^Slug/))).toContain("Give the application a slug.");
    // Keyboard focus goes to the first field that needs attention.
    expect(document.activeElement).toBe(name);
    await user.type(screen.getByLabelText(/^Slug/), "9bad");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    expect(descriptionOf(screen.getByLabelText(/^Slug/))).toContain("Use lowercase letters");
    expect(api.writes()).toEqual([]);
  });

  test("a valid form posts the trimmed body, the slug following the name", async () => {
    const api = recordingApi((call) =>
      call.method === "POST"
        ? {
            status: 201,
            body: { id: "app-1", ...(call.body as object), description: null, status: "active" },
          }
        : undefined,
    );
    renderWithApi(<ApplicationCreateForm companyId={COMPANY} />, api.fetcher);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/), "  Acme GitHub ");
    expect((screen.getByLabelText(/^Slug/) as HTMLInputElement).value).toBe("acme-github");
    await user.selectOptions(screen.getByLabelText(/^Type/), "mcp_stdio");
    await user.type(screen.getByLabelText(/^Description/), "Issues and pull requests");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    await screen.findByText(/Created “Acme GitHub”/);
    expect(api.writes()).toEqual([
      {
        method: "POST",
        path: `/api/companies/${COMPANY}/tools/applications`,
        body: {
          slug: "acme-github",
          name: "Acme GitHub",
          type: "mcp_stdio",
          description: "Issues and pull requests",
        },
      },
    ]);
  });

  test("the submit button is disabled while the request is pending", async () => {
    const api = recordingApi((call) => (call.method === "POST" ? "pending" : undefined));
    renderWithApi(<ApplicationCreateForm companyId={COMPANY} />, api.fetcher);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/), "GitHub");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    await waitFor(() => expect(screen.getByTestId("app-create-submit").hasAttribute("disabled")).toBe(true));
  });

  test("a taken slug from the server shows on the slug field", async () => {
    const api = recordingApi((call) =>
      call.method === "POST"
        ? {
            status: 409,
            body: {
              error: {
                code: "already_exists",
                message: "a record with the same unique value already exists",
                details: { constraint: "tool_applications_company_id_slug_key" },
              },
              requestId: "req-1",
            },
          }
        : undefined,
    );
    renderWithApi(<ApplicationCreateForm companyId={COMPANY} />, api.fetcher);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/), "GitHub");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText(/^Slug/))).toContain(
        "Another application already uses this slug.",
      ),
    );
  });
});
