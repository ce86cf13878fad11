"use client";

import type { ReactNode } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { TableSkeleton } from "../ui/Skeleton";
import { ApiErrorAlert } from "./ApiErrorAlert";

export interface QueryCardProps {
  /** The card's test id, e.g. `catalog-table`. */
  testId: string;
  className?: string;
  title: ReactNode;
  description?: ReactNode;
  /** The list's query: a refetch shows `refreshing` in the header, an error shows `loadError` with a retry. */
  query: { isPending: boolean; isFetching: boolean; error: unknown; refetch: () => unknown };
  refreshing: string;
  loadError: string;
  /** Summaries, toolbars and action errors between the load error and the list. */
  notices?: ReactNode;
  /** The skeleton shown while the first load is pending and there are no rows. */
  skeleton: { rows: number; columns: number; label: string };
  isEmpty: boolean;
  /** Stands instead of `children` when there are no rows. */
  empty: ReactNode;
  /** The table of rows. */
  children: ReactNode;
  /** Under the list, e.g. the add form. */
  footer?: ReactNode;
}

/** A card (h3 header) that loads a list: refresh spinner, load error, skeleton, empty text or the rows. */
export function QueryCard({
  testId,
  className,
  title,
  description,
  query,
  refreshing,
  loadError,
  notices,
  skeleton,
  isEmpty,
  empty,
  children,
  footer,
}: QueryCardProps) {
  return (
    <Card className={className} data-testid={testId}>
      <CardHeader
        title={title}
        titleAs="h3"
        description={description}
        refreshing={query.isFetching ? refreshing : undefined}
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert error={query.error} title={loadError} retry={() => void query.refetch()} />
        {notices}
        {query.isPending && isEmpty ? <TableSkeleton {...skeleton} /> : isEmpty ? empty : children}
        {footer}
      </CardBody>
    </Card>
  );
}
