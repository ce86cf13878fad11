import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { descriptionOf, recordingApi, renderWithApi } from "../test/form-harness";
import { ApiError } from "./api";
import { PoliciesManager } from "./PoliciesManager";
import { PolicyForm } from "./PolicyForm";
import type { PolicyInput } from "./types";

const COMPANY = "c-1";
afterEach(cleanup);

function setup(props: { error?: unknown; pending?: boolean } = {}) {
  const onSubmit = vi.fn<(input: PolicyInput) => void>();
  const api = recordingApi();
  const view = renderWithApi(<PolicyForm companyId={COMPANY} onSubmit={onSubmit} {...props} />, api.fetcher);
  return { onSubmit, api, view, user: userEvent.setup() };
}

const submitButton = () => screen.getByRole("button", { name: "Create policy" });

describe("PolicyForm", () => {
  test("shows the schema's errors on their fields, focuses the first, submits nothing", async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByLabelText(/^Tool name patterns/), "github.*, bad glob");
    await user.click(submitButton());
    expect(screen.getByTestId("policy-form-errors").textContent).toBe("2 fields need attention.");
    const name = screen.getByLabelText(/^Name/);
    expect(descriptionOf(name)).toContain("Give the policy a name.");
    expect(descriptionOf(screen.getByLabelText(/^Tool name patterns/))).toContain(
      "Tool patterns cannot contain spaces: bad glob",
    );
    await waitFor(() => expect(document.activeElement).toBe(name));
    // Fixing a field clears its message.
    await user.type(name, "Block deletes");
    expect(screen.getByTestId("policy-form-errors").textContent).toBe("One field needs attention.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test("limits of the server's policy contract show on their field", async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByLabelText(/^Name/), "Approve mail");
    await user.selectOptions(screen.getByLabelText(/^Kind/), "require_approval");
    await user.type(screen.getByLabelText(/^Approval expires after/), "30");
    await user.click(submitButton());
    expect(descriptionOf(screen.getByLabelText(/^Approval expires after/))).toContain("Use 60 or more.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test("a valid form submits the request body", async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByLabelText(/^Name/), " Cap issue creation ");
    await user.selectOptions(screen.getByLabelText(/^Kind/), "rate_limit");
    await user.type(screen.getByLabelText(/^Tool name patterns/), "github.create_issue");
    await user.type(screen.getByLabelText(/^Calls allowed/), "5");
    await user.type(screen.getByLabelText(/^Priority/), "10");
    await user.click(submitButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      name: "Cap issue creation",
      kind: "rate_limit",
      enabled: true,
      priority: 10,
      selectors: { toolGlobs: ["github.create_issue"] },
      conditions: {},
      effect: { limit: 5, windowSeconds: 60, per: "agent", perTool: false },
    });
  });

  test("a server validation error shows on the field it names", async () => {
    const error = new ApiError({
      status: 400,
      code: "invalid_request",
      message: "invalid body at `effect.windowSeconds`: too big",
      details: { issues: [{ path: "effect.windowSeconds", message: "at most one week" }] },
    });
    const { user } = setup({ error });
    await user.selectOptions(screen.getByLabelText(/^Kind/), "rate_limit");
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText(/^Per window of/))).toContain("At most one week"),
    );
  });

  test("the submit button is disabled while the request is pending", () => {
    setup({ pending: true });
    expect(screen.getByTestId("policy-submit").hasAttribute("disabled")).toBe(true);
  });
});

describe("PolicyForm in PoliciesManager", () => {
  test("a valid create posts the body; a server field error comes back onto the field", async () => {
    let refuse = true;
    const api = recordingApi((call) => {
      if (call.method !== "POST")
        return call.path.endsWith("/policies") ? { status: 200, body: { policies: [] } } : undefined;
      if (refuse) {
        refuse = false;
        return {
          status: 400,
          body: {
            error: {
              code: "invalid_request",
              message: "invalid body at `selectors.toolGlobs.0`: unsupported pattern",
              details: { issues: [{ path: "selectors.toolGlobs.0", message: "unsupported pattern" }] },
            },
            requestId: "req-1",
          },
        };
      }
      return { status: 201, body: { id: "pol-1", priority: 0, description: null, ...(call.body as object) } };
    });
    renderWithApi(<PoliciesManager companyId={COMPANY} canEdit initialPolicies={[]} />, api.fetcher);
    const user = userEvent.setup();
    await user.click(screen.getByTestId("policy-new"));
    await user.type(screen.getByLabelText(/^Name/), "Block deletes");
    await user.type(screen.getByLabelText(/^Tool name patterns/), "*_delete");
    await user.click(submitButton());
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText(/^Tool name patterns/))).toContain("Unsupported pattern"),
    );
    await user.click(submitButton());
    await waitFor(() => expect(screen.queryByTestId("policy-form")).toBeNull());
    const posts = api.writes();
    expect(posts).toHaveLength(2);
    expect(posts[1]).toEqual({
      method: "POST",
      path: `/api/companies/${COMPANY}/tools/policies`,
      body: {
        name: "Block deletes",
        kind: "block",
        enabled: true,
        selectors: { toolGlobs: ["*_delete"] },
        conditions: {},
        effect: {},
      },
    });
  });
});
