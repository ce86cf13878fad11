"use client";

import type { ComponentProps, ReactNode } from "react";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { cn, focusRing } from "../ui/cn";
import { PendingButton } from "../ui/PendingButton";
import { TD } from "../ui/Table";

const checkboxClass = cn(
  "mt-0.5 size-4 shrink-0 cursor-pointer rounded border-zinc-300 accent-accent-600 disabled:cursor-not-allowed",
  focusRing,
);

export type CheckboxProps = Omit<ComponentProps<"input">, "type"> & {
  label: ReactNode;
  /** Small text under the label. */
  description?: ReactNode;
};

/** A checkbox wrapped in its label. */
export function Checkbox({ label, description, className, ...props }: CheckboxProps) {
  return (
    <label className={cn("flex cursor-pointer items-start gap-2 text-sm text-zinc-800", className)}>
      <input type="checkbox" className={checkboxClass} {...props} />
      <span>
        {label}
        {description ? <span className="block text-xs text-zinc-500">{description}</span> : null}
      </span>
    </label>
  );
}

export interface CheckboxGroupOption {
  value: string;
  label: ReactNode;
}

export interface CheckboxGroupProps {
  legend: ReactNode;
  hint?: ReactNode;
  options: CheckboxGroupOption[];
  selected: string[];
  onChange: (next: string[]) => void;
  /** Shown instead of the options when there are none. */
  emptyText?: ReactNode;
  disabled?: boolean;
  /** Lay options out in a scrolling box (long lists). */
  scroll?: boolean;
  /** Lay options out in a row. */
  inline?: boolean;
  className?: string;
  "data-testid"?: string;
}

/**
 * A fieldset of checkboxes standing in for a multi-select. Selected values missing from `options`
 * (e.g. a deleted agent) stay listed so they can be unticked.
 */
export function CheckboxGroup({
  legend,
  hint,
  options,
  selected,
  onChange,
  emptyText,
  disabled,
  scroll,
  inline,
  className,
  ...rest
}: CheckboxGroupProps) {
  const known = new Set(options.map((o) => o.value));
  const all: CheckboxGroupOption[] = [
    ...options,
    ...selected
      .filter((v) => !known.has(v))
      .map((v) => ({ value: v, label: <span className="text-zinc-500">Unknown ({v.slice(0, 8)})</span> })),
  ];
  return (
    <fieldset className={cn("min-w-0", className)} data-testid={rest["data-testid"]} disabled={disabled}>
      <legend className="text-sm font-medium text-zinc-800">{legend}</legend>
      {hint ? <p className="mt-0.5 text-xs text-zinc-500">{hint}</p> : null}
      {all.length === 0 ? (
        <p className="mt-1.5 text-sm text-zinc-500">{emptyText ?? "Nothing to choose from yet."}</p>
      ) : (
        <div
          className={cn(
            "mt-1.5",
            inline ? "flex flex-wrap gap-x-4 gap-y-1.5" : "space-y-1.5",
            scroll && "max-h-40 overflow-y-auto rounded-md border border-zinc-200 p-2",
          )}
        >
          {all.map((option) => (
            <Checkbox
              key={option.value}
              label={option.label}
              value={option.value}
              checked={selected.includes(option.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...selected, option.value]
                    : selected.filter((value) => value !== option.value),
                )
              }
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}

export interface SwitchProps {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** Accessible name, e.g. "Enabled: Block destructive tools". */
  label: string;
  disabled?: boolean;
  busy?: boolean;
  className?: string;
  "data-testid"?: string;
}

/** An on/off switch (`role="switch"`), with the state written next to it. */
export function Switch({ checked, onChange, label, disabled, busy, className, ...rest }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      data-testid={rest["data-testid"]}
      data-state={checked ? "on" : "off"}
      className={cn(
        "inline-flex items-center gap-2 rounded-full text-xs font-medium text-zinc-700 disabled:cursor-not-allowed disabled:opacity-60",
        focusRing,
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors",
          checked ? "bg-emerald-600" : "bg-zinc-300",
        )}
      >
        <span
          className={cn(
            "absolute size-4 rounded-full bg-white shadow-xs transition-transform",
            checked ? "translate-x-4.5" : "translate-x-0.5",
          )}
        />
      </span>
      <span aria-hidden="true">{checked ? "On" : "Off"}</span>
    </button>
  );
}

export interface ConfirmBarProps {
  /** The question, e.g. "Delete “Support tools”?" */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  /** The action's failure (a mutation's `error`), shown inside the dialog. */
  error?: unknown;
  /** A short heading; defaults to the confirm label as a question ("Revoke secret?"). */
  title?: ReactNode;
  tone?: "danger" | "warning";
  className?: string;
  "data-testid"?: string;
}

/**
 * Confirmation for destructive actions, rendered while the caller is asking: a modal
 * `ConfirmDialog` (issue 21: one confirmation for archive, revoke, delete, stop). The caller
 * removes it on success or cancel; `${data-testid}-confirm` is the confirm button.
 */
export function ConfirmBar({
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  error,
  title,
  tone = "danger",
  ...rest
}: ConfirmBarProps) {
  return (
    <ConfirmDialog
      open
      onClose={onCancel}
      title={title ?? `${confirmLabel}?`}
      body={children}
      confirmLabel={confirmLabel}
      pendingLabel="Working…"
      tone={tone === "danger" ? "danger" : "primary"}
      pending={pending}
      error={error}
      errorTitle={`Could not ${confirmLabel.charAt(0).toLowerCase()}${confirmLabel.slice(1)}`}
      onConfirm={() => {
        onConfirm();
      }}
      data-testid={rest["data-testid"]}
    />
  );
}

/** A `ConfirmBar` in a table: its row holds the (modal) dialog. */
export function ConfirmRow({ colSpan, ...bar }: ConfirmBarProps & { colSpan: number }) {
  return (
    <tr>
      <td colSpan={colSpan} className="p-0">
        <ConfirmBar {...bar} />
      </td>
    </tr>
  );
}

/** The last cell of a row that can be removed: a ghost "Remove" button that shows "Removing…" while pending. */
export function RemoveCell<Id>({
  remove,
  id,
  label,
  testId,
}: {
  /** The remove mutation of the table; this row's removal is pending while it runs for `id`. */
  remove: { isPending: boolean; variables: Id | undefined; mutate: (id: Id) => void };
  id: Id;
  /** The accessible name, e.g. `Remove entry: github.*`. */
  label: string;
  testId: string;
}) {
  return (
    <TD className="text-right">
      <PendingButton
        pending={remove.isPending && remove.variables === id}
        pendingLabel="Removing…"
        variant="ghost"
        size="sm"
        onClick={() => remove.mutate(id)}
        aria-label={label}
        data-testid={testId}
      >
        Remove
      </PendingButton>
    </TD>
  );
}

/** A form's right-aligned, small submit button that shows `pendingLabel` while `pending`. */
export function SubmitRow({
  pending,
  pendingLabel,
  testId,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-end">
      <PendingButton
        pending={pending}
        pendingLabel={pendingLabel}
        type="submit"
        size="sm"
        data-testid={testId}
      >
        {children}
      </PendingButton>
    </div>
  );
}
