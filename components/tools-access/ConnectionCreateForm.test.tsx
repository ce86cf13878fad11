import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { descriptionOf, recordingApi, renderWithApi } from "../test/form-harness";
import { ConnectionCreateForm } from "./ConnectionCreateForm";
import type { ApplicationChoice } from "./types";

const COMPANY = "c-1";
const applications: ApplicationChoice[] = [
  { id: "app-http", name: "GitHub", slug: "github", type: "mcp_http" },
  { id: "app-stdio", name: "Files", slug: "files", type: "mcp_stdio" },
];
afterEach(cleanup);

function setup(answer?: Parameters<typeof recordingApi>[0], applicationId: string | null = "app-http") {
  const api = recordingApi(answer);
  const onCreated = vi.fn();
  renderWithApi(
    <ConnectionCreateForm
      companyId={COMPANY}
      applications={applications}
      applicationId={applicationId}
      onCreated={onCreated}
    />,
    api.fetcher,
  );
  return { api, onCreated, user: userEvent.setup() };
}

const submitButton = () => screen.getByRole("button", { name: "Create draft connection" });

describe("ConnectionCreateForm", () => {
  test("shows the schema's errors for the application's type and sends nothing", async () => {
    const { api, user } = setup();
    await user.click(submitButton());
    expect(descriptionOf(screen.getByLabelText(/^Name/))).toContain("Give the connection a name.");
    expect(descriptionOf(screen.getByLabelText(/^URL/))).toContain("Enter the server's URL.");
    await user.type(screen.getByLabelText(/^URL/), "ftp://mcp.example.com");
    expect(descriptionOf(screen.getByLabelText(/^URL/))).toContain("Use an http(s) URL.");

    // A local server needs a command template instead of a URL.
    await user.selectOptions(screen.getByLabelText(/^Application/), "app-stdio");
    await user.type(screen.getByLabelText(/^Name/), "files");
    await user.click(submitButton());
    expect(descriptionOf(screen.getByLabelText(/^Command template id/))).toContain(
      "Enter the id of an admin-made command template.",
    );
    expect(api.writes()).toEqual([]);
  });

  test("no application chosen is an error on the application field", async () => {
    const { api, user } = setup(undefined, null);
    await user.click(submitButton());
    expect(descriptionOf(screen.getByLabelText(/^Application/))).toContain("Choose an application.");
    expect(api.writes()).toEqual([]);
  });

  test("a valid form posts the connection and reports it", async () => {
    const { api, onCreated, user } = setup((call) =>
      call.method === "POST"
        ? { status: 201, body: { id: "conn-1", ...(call.body as object), status: "draft" } }
        : undefined,
    );
    await user.type(screen.getByLabelText(/^Name/), " acme org ");
    await user.type(screen.getByLabelText(/^URL/), "https://mcp.example.com/mcp");
    await user.type(screen.getByLabelText(/^Timeout/), "5000");
    await user.click(screen.getByLabelText(/Auto-approve read tools/));
    await user.click(submitButton());
    await waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(api.writes()).toEqual([
      {
        method: "POST",
        path: `/api/companies/${COMPANY}/tools/connections`,
        body: {
          applicationId: "app-http",
          name: "acme org",
          transportConfig: { url: "https://mcp.example.com/mcp", timeoutMs: 5000 },
          autoApproveReadTools: true,
        },
      },
    ]);
    // The form starts over for the next connection.
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe("");
  });

  test("a credential the server finds in the headers shows on the headers field", async () => {
    const { user } = setup((call) =>
      call.method === "POST"
        ? {
            status: 400,
            body: {
              error: {
                code: "inline_secret",
                message: "`/headers/x-api-key` holds a credential header: store it as a company secret",
                details: { findings: [{ path: "/headers/x-api-key", reason: "sensitive_header" }] },
              },
              requestId: "req-1",
            },
          }
        : undefined,
    );
    await user.type(screen.getByLabelText(/^Name/), "acme");
    await user.type(screen.getByLabelText(/^URL/), "https://mcp.example.com/mcp");
    await user.type(screen.getByLabelText(/^Non-secret headers/), "X-Tenant: acme");
    await user.click(submitButton());
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText(/^Non-secret headers/))).toContain(
        "holds a credential header",
      ),
    );
    expect(screen.getByText("These settings hold a credential")).toBeTruthy();
  });
});
