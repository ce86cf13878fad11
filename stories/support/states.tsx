/** The loading and failure stories that list and detail screens share. */
import type { Decorator } from "@storybook/nextjs-vite";
import type { ReactNode } from "react";
import { Alert, TableSkeleton } from "@/components/ui";

/** A story that renders the screen's error alert instead of the component. */
export function errorStory(title: string, code: string, message: ReactNode) {
  return {
    render: () => (
      <Alert tone="danger" title={title} code={code}>
        {message}
      </Alert>
    ),
  };
}

/** A list page whose database query failed: "Could not load {noun}". */
export function databaseErrorStory(noun: string) {
  return errorStory(
    `Could not load ${noun}`,
    "DB_UNAVAILABLE",
    "The database did not respond. Reload the page to try again.",
  );
}

/** A list page while its table loads. */
export function tableLoadingStory(rows: number, columns: number, label?: string) {
  return { render: () => <TableSkeleton rows={rows} columns={columns} label={label} /> };
}

/**
 * A story whose component and in-memory API start from the same rows: its `args` (e.g.
 * `{ initialRules: rules }`) and the mock-API decorator serving them (`withApprovalsApi({ trustRules: rules })`).
 */
export function seeded<A>(args: A, api: Decorator) {
  return { args, decorators: [api] };
}
