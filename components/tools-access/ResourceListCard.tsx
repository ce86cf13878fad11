"use client";

import type { ReactNode } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ReadOnlyNote } from "./ReadOnlyNote";

export interface ResourceListCardProps {
  /** The outer element's test id, e.g. `secrets-manager`. */
  testId: string;
  className?: string;
  title: ReactNode;
  description?: ReactNode;
  /** Spinner label while the list refetches. */
  refreshing?: string;
  actions?: ReactNode;
  /** The list query's error: shown above the card with a retry. */
  loadError: unknown;
  loadErrorTitle: string;
  onRetry: () => void;
  /** Shown instead of the controls when the viewer may not change anything. */
  readOnly: { note: ReactNode; testId: string } | null;
  /** Action errors and open panels shown above the list. */
  notices?: ReactNode;
  /** Set when the list has no rows: the empty state replaces `children`. */
  empty: { title: string; description: string; testId: string } | null;
  /** The table of rows. */
  children?: ReactNode;
  /** Below the card, e.g. the create form. */
  footer?: ReactNode;
}

/** The shell of a manager screen: load error, a card with header, read-only note, notices, list or empty state. */
export function ResourceListCard({
  testId,
  className,
  title,
  description,
  refreshing,
  actions,
  loadError,
  loadErrorTitle,
  onRetry,
  readOnly,
  notices,
  empty,
  children,
  footer,
}: ResourceListCardProps) {
  return (
    <div className={cn("space-y-4", className)} data-testid={testId}>
      <ApiErrorAlert error={loadError} title={loadErrorTitle} retry={onRetry} />
      <Card>
        <CardHeader title={title} description={description} actions={actions} refreshing={refreshing} />
        <CardBody className="space-y-4">
          {readOnly ? <ReadOnlyNote data-testid={readOnly.testId}>{readOnly.note}</ReadOnlyNote> : null}
          {notices}
          {empty ? (
            <EmptyState
              headingAs="h3"
              title={empty.title}
              description={empty.description}
              data-testid={empty.testId}
            />
          ) : (
            children
          )}
        </CardBody>
      </Card>
      {footer}
    </div>
  );
}
