"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useActionState, useEffect } from "react";
import { Alert } from "../ui/Alert";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { SubmitButton } from "../ui/SubmitButton";

/** What a configuration form's server action answers: an error message or a notice. */
export interface ConfigFormState {
  error?: string | null;
  notice?: string | null;
}

/** One server action for every form of a screen; the form's `intent` field says which. */
export type ConfigAction = (state: ConfigFormState, formData: FormData) => Promise<ConfigFormState>;

/**
 * The action's state and the form action, re-reading the page after every answer so the
 * screen shows what the server now holds (new revisions, new rows).
 */
export function useConfigForm(action: ConfigAction) {
  const [state, formAction] = useActionState(action, {} as ConfigFormState);
  const router = useRouter();
  useEffect(() => {
    if (state.notice || state.error) router.refresh();
  }, [state, router]);
  return [state, formAction] as const;
}

/** The action's error or notice, above the forms. */
export function FormNotice({ state, testId }: { state: ConfigFormState; testId: string }) {
  if (state.error)
    return (
      <Alert tone="danger" data-testid={`${testId}-error`}>
        {state.error}
      </Alert>
    );
  if (state.notice)
    return (
      <Alert tone="success" data-testid={`${testId}-notice`}>
        {state.notice}
      </Alert>
    );
  return null;
}

/** An admin's create card over a server action: heading, the fields, the submit button. */
export function ActionFormCard({
  title,
  description,
  formAction,
  intent,
  testId,
  submitLabel,
  pendingLabel,
  children,
}: {
  title: string;
  description: string;
  formAction: (formData: FormData) => void;
  /** The action's `intent` field. */
  intent: string;
  /** The form's test id; the submit button's is `${testId}-submit`. */
  testId: string;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <CardBody>
        <form action={formAction} className="space-y-3" data-testid={`${testId}-form`}>
          <input type="hidden" name="intent" value={intent} />
          {children}
          <SubmitButton pendingLabel={pendingLabel} data-testid={`${testId}-submit`}>
            {submitLabel}
          </SubmitButton>
        </form>
      </CardBody>
    </Card>
  );
}
