import { Button, type ButtonProps } from "./Button";

export type PendingButtonProps = ButtonProps & {
  /** True while the button's own action runs: disables it, sets `aria-busy` and shows `pendingLabel`. */
  pending: boolean;
  /** Text shown instead of the children while pending, e.g. "Saving…". */
  pendingLabel: string;
};

/**
 * A button that disables itself and swaps its text while its action is pending (no spinner).
 * `disabled` still applies when not pending. For `<form action>` submits, use `SubmitButton`.
 */
export function PendingButton({ pending, pendingLabel, disabled, children, ...props }: PendingButtonProps) {
  return (
    <Button disabled={pending || disabled} aria-busy={pending || undefined} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
