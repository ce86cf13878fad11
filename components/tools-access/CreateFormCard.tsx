"use client";

import type { FormEvent, ReactNode } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { SubmitRow } from "./controls";

export interface CreateFormCardProps {
  title: string;
  description?: ReactNode;
  /** The form's accessible name, e.g. "Create a secret". */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
  submitTestId: string;
  /** Fields, alerts and notes, above the submit button. */
  children: ReactNode;
}

/** The card below a manager's list that creates a new row: heading, fields, a right-aligned submit. */
export function CreateFormCard({
  title,
  description,
  label,
  onSubmit,
  pending,
  submitLabel,
  pendingLabel = "Creating…",
  submitTestId,
  children,
}: CreateFormCardProps) {
  return (
    <Card>
      <CardHeader title={title} titleAs="h3" description={description} />
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label={label}>
          {children}
          <SubmitRow pending={pending} pendingLabel={pendingLabel} testId={submitTestId}>
            {submitLabel}
          </SubmitRow>
        </form>
      </CardBody>
    </Card>
  );
}
