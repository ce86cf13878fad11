"use client";

import type { ReactNode } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { EmptyState } from "../ui/EmptyState";
import { ListFrame } from "./ListFrame";
import { ReadOnlyNote } from "./ReadOnlyNote";

export interface ResourceListCardProps {
  /** The outer element's test id, e.g. `secrets-manager`. */
  testId: string;
  className?: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /**
   * The list's query: a refetch shows "Refreshing {noun}" in the header, an error shows
   * "Could not refresh the {noun}" above the card with a retry.
   */
  query: { isFetching: boolean; error: unknown; refetch: () => unknown };
  /** The rows, plural: "trust rules". */
  noun: string;
  /** No header spinner while the list refetches. */
  quietRefresh?: boolean;
  /** Without it the read-only note stands instead of the controls. */
  canEdit: boolean;
  readOnly: { note: ReactNode; testId: string };
  /** Action errors and open panels shown above the list. */
  notices?: ReactNode;
  /** When there are no rows the empty state replaces `children`. */
  isEmpty: boolean;
  empty: { title: string; description: string; testId: string };
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
  actions,
  query,
  noun,
  quietRefresh = false,
  canEdit,
  readOnly,
  notices,
  isEmpty,
  empty,
  children,
  footer,
}: ResourceListCardProps) {
  return (
    <ListFrame testId={testId} className={className} query={query} noun={noun}>
      <Card>
        <CardHeader
          title={title}
          description={description}
          actions={actions}
          refreshing={query.isFetching && !quietRefresh ? `Refreshing ${noun}` : undefined}
        />
        <CardBody className="space-y-4">
          {canEdit ? null : <ReadOnlyNote data-testid={readOnly.testId}>{readOnly.note}</ReadOnlyNote>}
          {notices}
          {isEmpty ? (
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
    </ListFrame>
  );
}
