"use client";

import { useEffect, useId } from "react";
import type { FormAction } from "../types";
import { Alert } from "../ui/Alert";
import { Card, CardBody } from "../ui/Card";
import { cn } from "../ui/cn";
import { LabeledInput } from "../ui/FieldControls";
import { SubmitButton } from "../ui/SubmitButton";

export interface SignInFormProps {
  /** A React server action; receives the form data with fields `email` and `password`. */
  action: FormAction;
  /** Message from a failed attempt, e.g. "Email or password is incorrect." */
  error?: string | null;
  defaultEmail?: string;
  /** A neutral message above the form, e.g. after a password was set. */
  notice?: string | null;
  /** Heading above the form. */
  title?: string;
  className?: string;
}

/** Email and password sign-in card. The submit button is disabled while the action is pending. */
export function SignInForm({
  action,
  error,
  defaultEmail,
  notice,
  title = "Sign in to Paperclip",
  className,
}: SignInFormProps) {
  const id = useId();
  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;
  const errorId = `${id}-error`;
  // After a failed attempt the page comes back with the error: focus the password field (the
  // email is kept), so the person can type again at once; the field is described by the error,
  // which a screen reader reads with it.
  useEffect(() => {
    if (error) document.getElementById(passwordId)?.focus();
  }, [error, passwordId]);
  return (
    <Card className={cn("w-full max-w-sm", className)}>
      <CardBody className="space-y-6 px-6 py-8">
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {notice && !error ? (
          <Alert tone="success" data-testid="signin-notice">
            {notice}
          </Alert>
        ) : null}
        {error ? (
          <Alert tone="danger" id={errorId} data-testid="signin-error">
            {error}
          </Alert>
        ) : null}
        <form action={action} className="space-y-4" data-testid="signin-form">
          <LabeledInput
            label="Email"
            id={emailId}
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={defaultEmail}
            invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
            data-testid="signin-email"
          />
          <LabeledInput
            label="Password"
            id={passwordId}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
            data-testid="signin-password"
          />
          <SubmitButton className="w-full" pendingLabel="Signing in…" data-testid="signin-submit">
            Sign in
          </SubmitButton>
        </form>
      </CardBody>
    </Card>
  );
}
