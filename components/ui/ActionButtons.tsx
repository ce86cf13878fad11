import type { ReactNode } from "react";
import type { ButtonProps, ButtonSize } from "./Button";
import { PendingButton } from "./PendingButton";

/** One button of an action row: its label, plus any button props (variant, onClick, data-testid…). */
export type ActionButtonSpec = Omit<ButtonProps, "children" | "size"> & {
  label: ReactNode;
  /** True while this action runs; needs `pendingLabel`. */
  pending?: boolean;
  pendingLabel?: string;
  "data-testid"?: string;
};

/**
 * A row of small buttons described by data, so card headers and bulk bars do not repeat the
 * same button markup. Falsy entries are skipped, which keeps conditional actions inline.
 */
export function ActionButtons({
  actions,
  size = "sm",
}: {
  actions: ReadonlyArray<ActionButtonSpec | false | null | undefined>;
  size?: ButtonSize;
}) {
  return (
    <>
      {actions.map((action, i) => {
        if (!action) return null;
        const { label, pending = false, pendingLabel = "", ...rest } = action;
        return (
          <PendingButton
            key={rest["data-testid"] ?? i}
            size={size}
            pending={pending}
            pendingLabel={pendingLabel}
            {...rest}
          >
            {label}
          </PendingButton>
        );
      })}
    </>
  );
}
