"use client";

import { type ReactNode, useActionState } from "react";
import { Alert } from "../ui/Alert";
import { cn } from "../ui/cn";

/** What a work form's server action answers: an error to show, or a notice. */
export interface WorkActionState {
  error?: string | null;
  notice?: string | null;
}

/** A server action of a work form (status, documents, deliverables). */
export type WorkAction = (state: WorkActionState, formData: FormData) => Promise<WorkActionState>;

/** A form whose server action answers with an error or a notice, shown above its fields. */
export function WorkActionForm({
  action,
  children,
  className,
  testId,
}: {
  action: WorkAction;
  children: ReactNode;
  className?: string;
  testId: string;
}) {
  const [state, formAction] = useActionState(action, {} as WorkActionState);
  return (
    <form action={formAction} className={cn("space-y-3", className)} data-testid={testId}>
      {state.error ? (
        <Alert tone="danger" data-testid={`${testId}-error`}>
          {state.error}
        </Alert>
      ) : null}
      {state.notice ? (
        <Alert tone="success" data-testid={`${testId}-notice`}>
          {state.notice}
        </Alert>
      ) : null}
      {children}
    </form>
  );
}
