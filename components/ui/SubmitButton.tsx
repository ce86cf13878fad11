"use client";

import { useFormStatus } from "react-dom";
import { Button, type ButtonProps } from "./Button";
import { Spinner } from "./Spinner";

export type SubmitButtonProps = Omit<ButtonProps, "type"> & {
  /** Text shown while the surrounding form's action is pending. */
  pendingLabel?: string;
};

/** A submit button that disables itself while its parent `<form action>` is pending. */
export function SubmitButton({ children, pendingLabel, disabled, ...props }: SubmitButtonProps) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" disabled={pending || disabled} aria-busy={pending || undefined} {...props}>
      {pending ? (
        <>
          <Spinner size="sm" label="" aria-hidden="true" className="text-current" />
          {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </Button>
  );
}
