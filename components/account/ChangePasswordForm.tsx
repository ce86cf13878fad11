"use client";

import { useActionState } from "react";
import { Alert } from "../ui/Alert";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { SubmitButton } from "../ui/SubmitButton";
import { NEW_PASSWORD_LABEL, PasswordInputs } from "./PasswordInputs";

export interface ChangePasswordState {
  error?: string | null;
  notice?: string | null;
}

/** The signed-in person's password change; their other sessions end when it succeeds. */
export function ChangePasswordForm({
  action,
}: {
  action: (state: ChangePasswordState, formData: FormData) => Promise<ChangePasswordState>;
}) {
  const [state, formAction] = useActionState(action, {} as ChangePasswordState);
  return (
    <Card>
      <CardHeader
        title="Change password"
        description="Every other session of your account ends; this one stays signed in."
      />
      <CardBody className="space-y-4">
        {state.error ? (
          <Alert tone="danger" data-testid="password-error">
            {state.error}
          </Alert>
        ) : null}
        {state.notice ? (
          <Alert tone="success" data-testid="password-notice">
            {state.notice}
          </Alert>
        ) : null}
        <form action={formAction} className="max-w-sm space-y-4" data-testid="password-form">
          <PasswordInputs
            inputs={[
              {
                label: "Current password",
                id: "current-password",
                name: "currentPassword",
                testId: "password-current",
                current: true,
              },
              { label: NEW_PASSWORD_LABEL, id: "next-password", name: "newPassword", testId: "password-new" },
            ]}
          />
          <SubmitButton pendingLabel="Saving…" data-testid="password-submit">
            Change password
          </SubmitButton>
        </form>
      </CardBody>
    </Card>
  );
}
