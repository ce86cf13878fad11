"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { Alert } from "../ui/Alert";

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
