"use client";

import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { ApiErrorAlert } from "./ApiErrorAlert";

export interface ListFrameProps {
  /** The outer element's test id, e.g. `profiles-manager`. */
  testId: string;
  className?: string;
  /** The screen's list query: its error shows "Could not refresh the {noun}" with a retry. */
  query: { error: unknown; refetch: () => unknown };
  /** The rows, plural: "profiles". */
  noun: string;
  children: ReactNode;
}

/** The outer frame of a list screen: a spaced column whose first item is the list's refresh error. */
export function ListFrame({ testId, className, query, noun, children }: ListFrameProps) {
  return (
    <div className={cn("space-y-4", className)} data-testid={testId}>
      <ApiErrorAlert
        error={query.error}
        title={`Could not refresh the ${noun}`}
        retry={() => void query.refetch()}
      />
      {children}
    </div>
  );
}
