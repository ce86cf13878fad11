"use client";

import type { FormEvent, ReactNode } from "react";
import { SubmitRow } from "./controls";

export interface InlineAddFormProps {
  /** Prefix of the ids (from `useId`); the heading is `${id}-title`. */
  id: string;
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  testId: string;
  submitTestId: string;
  /** Fields, hints and error alerts, above the submit button. */
  children: ReactNode;
}

/** The boxed "add a row" form under a table: a heading, the fields, a right-aligned submit button. */
export function InlineAddForm({
  id,
  title,
  onSubmit,
  pending,
  submitLabel,
  pendingLabel,
  testId,
  submitTestId,
  children,
}: InlineAddFormProps) {
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
      aria-labelledby={`${id}-title`}
      data-testid={testId}
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        {title}
      </h4>
      {children}
      <SubmitRow pending={pending} pendingLabel={pendingLabel} testId={submitTestId}>
        {submitLabel}
      </SubmitRow>
    </form>
  );
}
