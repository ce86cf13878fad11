import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../tools-access/api";
import { ConfirmButton } from "./ConfirmDialog";

afterEach(cleanup);

function setup(onConfirm: (note: string) => unknown, withNote = true) {
  const user = userEvent.setup();
  render(
    <ConfirmButton
      triggerTestId="stop"
      title="Stop the slot?"
      body="The process is ended; calls start it again."
      confirmLabel="Stop"
      pendingLabel="Stopping…"
      tone="danger"
      errorTitle="Could not stop the slot"
      note={withNote ? { label: "Note (optional)", maxLength: 20 } : undefined}
      onConfirm={onConfirm}
    >
      Stop
    </ConfirmButton>,
  );
  return user;
}

describe("ConfirmDialog", () => {
  it("opens on the trigger as a modal dialog with its title and body", async () => {
    const onConfirm = vi.fn();
    const user = setup(onConfirm);
    expect(screen.queryByRole("dialog")).toBeNull();
    await user.click(screen.getByTestId("stop"));
    const dialog = screen.getByRole("dialog", { name: "Stop the slot?" });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(dialog.textContent).toContain("calls start it again");
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("cancels on Escape without running the action, and focus returns to the trigger", async () => {
    const onConfirm = vi.fn();
    const user = setup(onConfirm);
    await user.click(screen.getByTestId("stop"));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByTestId("stop"));
  });

  it("cancels on the Cancel button", async () => {
    const onConfirm = vi.fn();
    const user = setup(onConfirm);
    await user.click(screen.getByTestId("stop"));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("sends the trimmed note and closes once the action succeeds", async () => {
    const onConfirm = vi.fn(async () => {});
    const user = setup(onConfirm);
    await user.click(screen.getByTestId("stop"));
    await user.type(screen.getByLabelText("Note (optional)"), "  looks right  ");
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Stop" }));
    expect(onConfirm).toHaveBeenCalledWith("looks right");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("limits the note to its maximum length", async () => {
    const user = setup(vi.fn());
    await user.click(screen.getByTestId("stop"));
    const note = screen.getByLabelText("Note (optional)") as HTMLTextAreaElement;
    expect(note.maxLength).toBe(20);
    expect(screen.getByText("0/20")).toBeTruthy();
  });

  it("shows the pending label and disables both buttons while the action runs", async () => {
    let finish: () => void = () => {};
    const user = setup(() => new Promise<void>((resolve) => (finish = resolve)));
    await user.click(screen.getByTestId("stop"));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Stop" }));
    const confirm = screen.getByTestId("stop-dialog-confirm") as HTMLButtonElement;
    expect(confirm.textContent).toBe("Stopping…");
    expect(confirm.disabled).toBe(true);
    expect((screen.getByTestId("stop-dialog-cancel") as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard("{Escape}");
    expect(screen.getByRole("dialog")).toBeTruthy();
    finish();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("keeps the dialog open with the server's error inside it when the action fails", async () => {
    const onConfirm = vi.fn(async () => {
      throw new ApiError({ status: 409, code: "slot_busy", message: "the slot is starting" });
    });
    const user = setup(onConfirm, false);
    await user.click(screen.getByTestId("stop"));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Stop" }));
    const dialog = screen.getByRole("dialog");
    const error = await screen.findByTestId("stop-dialog-error");
    expect(dialog.contains(error)).toBe(true);
    expect(error.textContent).toContain("Could not stop the slot");
    expect(error.textContent).toContain("the slot is starting");
    expect(error.textContent).toContain("slot_busy");
    // A second try runs the action again.
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Stop" }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });
});

describe("ConfirmDialog driven by the caller (ConfirmBar)", () => {
  it("shows the caller's pending state and error, and stays open until the caller closes it", async () => {
    const { ConfirmDialog } = await import("./ConfirmDialog");
    const onConfirm = vi.fn();
    const props = {
      open: true,
      onClose: () => {},
      title: "Revoke secret?",
      confirmLabel: "Revoke secret",
      tone: "danger" as const,
      onConfirm,
      "data-testid": "bar",
    };
    const { rerender } = render(<ConfirmDialog {...props} />);
    const user = userEvent.setup();
    await user.click(screen.getByTestId("bar-confirm"));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("dialog")).toBeTruthy();
    rerender(<ConfirmDialog {...props} pending />);
    expect((screen.getByTestId("bar-confirm") as HTMLButtonElement).disabled).toBe(true);
    rerender(
      <ConfirmDialog
        {...props}
        error={new ApiError({ status: 409, code: "secret_in_use", message: "bound to a connection" })}
      />,
    );
    expect(screen.getByTestId("bar-error").textContent).toContain("bound to a connection");
  });
});
