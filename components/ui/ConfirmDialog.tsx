"use client";

import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from "./Button";
import { cn } from "./cn";
import { PendingButton } from "./PendingButton";
import { Textarea } from "./Textarea";

/** `danger` for what cannot be undone or stops something (decline, stop, revoke, archive). */
export type ConfirmTone = "primary" | "danger";

export interface ConfirmNoteOptions {
  /** The textarea's label, e.g. "Note for the audit log (optional)". */
  label: string;
  /** The server's limit; the textarea refuses more (e.g. 2000 for approval notes). */
  maxLength: number;
  /** Shown below the textarea, e.g. "The agent sees this note". */
  hint?: ReactNode;
  placeholder?: string;
}

export interface ConfirmDialogProps {
  open: boolean;
  /** Called when the dialog closes without confirming (Cancel, Escape) and after a confirm succeeds. */
  onClose: () => void;
  title: ReactNode;
  /** What happens when confirmed, in a sentence or two. */
  body?: ReactNode;
  /** When given, an optional note textarea whose trimmed text `onConfirm` receives. */
  note?: ConfirmNoteOptions;
  confirmLabel: string;
  /** e.g. "Stopping…". Defaults to the confirm label. */
  pendingLabel?: string;
  cancelLabel?: string;
  tone?: ConfirmTone;
  /**
   * Runs the action. While its promise runs the dialog is pending (buttons disabled, Escape
   * ignored); a rejection keeps the dialog open and shows the error inside it; success closes it.
   * When it returns no promise (e.g. a mutation's `mutate`), the caller drives the dialog with
   * `pending` and `error` and closes it itself.
   */
  onConfirm: (note: string) => Promise<unknown> | unknown;
  /** The caller's own pending state (a mutation's `isPending`). */
  pending?: boolean;
  /** The caller's own failure to show inside the dialog (a mutation's `error`). */
  error?: unknown;
  /** Title of the error shown when `onConfirm` fails, e.g. "Could not stop the slot". */
  errorTitle?: ReactNode;
  "data-testid"?: string;
}

/**
 * A confirmation on the native `<dialog>` (`showModal`): the browser traps focus and makes the
 * page inert; Escape and Cancel close it; focus goes back to the element that opened it.
 */
export function ConfirmDialog({
  open,
  onClose,
  title,
  body,
  note,
  confirmLabel,
  pendingLabel,
  cancelLabel = "Cancel",
  tone = "primary",
  onConfirm,
  errorTitle,
  pending: outerPending = false,
  error: outerError,
  ...rest
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const [innerPending, setPending] = useState(false);
  const [innerError, setError] = useState<unknown>(null);
  const pending = innerPending || outerPending;
  const error = innerError ?? outerError ?? null;
  const [text, setText] = useState("");
  const id = useId();
  const testId = rest["data-testid"] ?? "confirm-dialog";

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      setError(null);
      setText("");
      dialog.showModal();
      // The note when there is one, else Cancel: never the destructive button by default.
      dialog.querySelector<HTMLElement>("textarea, button")?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
    if (!open && opener.current) {
      // Chromium restores focus itself; happy-dom and older engines do not.
      const back = opener.current;
      opener.current = null;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    }
  }, [open]);

  function cancel() {
    if (pending) return;
    onClose();
  }

  // Unmounted while open (the caller closed it by removing it): focus goes back to the opener.
  useEffect(
    () => () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    },
    [],
  );

  async function confirm() {
    if (pending) return;
    setError(null);
    const result = onConfirm(text.trim());
    if (!(result instanceof Promise)) return;
    setPending(true);
    try {
      await result;
      setPending(false);
      onClose();
    } catch (e) {
      setPending(false);
      setError(e ?? new Error("the action failed"));
    }
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={body ? `${id}-body` : undefined}
      aria-busy={pending || undefined}
      // The native Escape: keep our state in step (or refuse while the action runs).
      onCancel={(e) => {
        e.preventDefault();
        cancel();
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          cancel();
        }
      }}
      className={cn(
        "m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl",
        "backdrop:bg-zinc-950/40",
      )}
      data-testid={testId}
    >
      {open ? (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
        >
          <div className="space-y-3 px-5 pt-5 pb-4 text-sm">
            <h2 id={`${id}-title`} className="text-base font-semibold text-zinc-900">
              {title}
            </h2>
            {body ? (
              <div id={`${id}-body`} className="leading-relaxed text-zinc-700">
                {body}
              </div>
            ) : null}
            {note ? (
              <div className="space-y-1.5">
                <label htmlFor={`${id}-note`} className="block text-sm font-medium text-zinc-900">
                  {note.label}
                </label>
                <Textarea
                  id={`${id}-note`}
                  rows={3}
                  maxLength={note.maxLength}
                  value={text}
                  placeholder={note.placeholder}
                  onChange={(e) => setText(e.target.value)}
                  aria-describedby={`${id}-note-hint`}
                  disabled={pending}
                  data-testid={`${testId}-note`}
                />
                <p id={`${id}-note-hint`} className="text-xs text-zinc-500">
                  {note.hint ? <>{note.hint} · </> : null}
                  {text.length}/{note.maxLength}
                </p>
              </div>
            ) : null}
            <ApiErrorAlert error={error} title={errorTitle} data-testid={`${testId}-error`} />
          </div>
          <div className="flex flex-wrap justify-end gap-2 rounded-b-lg border-t border-zinc-200 bg-zinc-50 px-5 py-3">
            <Button variant="secondary" onClick={cancel} disabled={pending} data-testid={`${testId}-cancel`}>
              {cancelLabel}
            </Button>
            <PendingButton
              type="submit"
              variant={tone === "danger" ? "danger" : "primary"}
              pending={pending}
              pendingLabel={pendingLabel ?? confirmLabel}
              data-testid={`${testId}-confirm`}
            >
              {confirmLabel}
            </PendingButton>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}

export type ConfirmButtonProps = Omit<ConfirmDialogProps, "open" | "onClose"> & {
  /** The trigger's text. */
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  disabled?: boolean;
  className?: string;
  /** The trigger's accessible name when its text is ambiguous among rows ("Stop echo"). */
  "aria-label"?: string;
  /** The trigger's test id; the dialog's is `<id>-dialog` unless `dialogTestId` is given. */
  triggerTestId?: string;
  dialogTestId?: string;
  triggerProps?: Omit<ButtonProps, "onClick" | "children">;
};

/** A button that opens a `ConfirmDialog` and runs `onConfirm` only once the person confirms. */
export function ConfirmButton({
  children,
  variant = "secondary",
  size = "sm",
  disabled,
  className,
  triggerTestId,
  dialogTestId,
  triggerProps,
  ...dialog
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const { "aria-label": ariaLabel, ...props } = dialog;
  return (
    <>
      <Button
        {...triggerProps}
        variant={variant}
        size={size}
        disabled={disabled}
        className={className}
        aria-label={ariaLabel}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid={triggerTestId}
      >
        {children}
      </Button>
      <ConfirmDialog
        {...props}
        open={open}
        onClose={() => setOpen(false)}
        data-testid={dialogTestId ?? (triggerTestId ? `${triggerTestId}-dialog` : undefined)}
      />
    </>
  );
}
