import type { ReactNode } from "react";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { isApiError } from "./api";

export interface ApiErrorAlertProps {
  /** Anything thrown by a query or mutation; nothing renders when it is null or undefined. */
  error: unknown;
  /** What failed, e.g. "Could not add the entry". */
  title?: ReactNode;
  actions?: ReactNode;
  /** Renders a "Try again" button (before any `actions`) that calls this, e.g. `() => void query.refetch()`. */
  retry?: () => void;
  className?: string;
  "data-testid"?: string;
}

/** Shows the server's error `message` and `code` (and per-field issues) in a danger `Alert`. */
export function ApiErrorAlert({
  error,
  title,
  actions: extraActions,
  retry,
  className,
  ...rest
}: ApiErrorAlertProps) {
  if (error === null || error === undefined) return null;
  const actions = retry ? (
    <>
      <Button variant="secondary" size="sm" onClick={retry}>
        Try again
      </Button>
      {extraActions}
    </>
  ) : (
    extraActions
  );
  const testId = rest["data-testid"] ?? "api-error";
  if (isApiError(error)) {
    const issues = error.issues;
    return (
      <Alert
        tone="danger"
        title={title}
        code={error.code}
        actions={actions}
        className={className}
        data-testid={testId}
        data-status={error.status}
      >
        <p>{error.message}</p>
        {issues.length > 0 ? (
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                {issue.path ? <code className="font-mono text-xs">{issue.path}</code> : null}
                {issue.path ? ": " : null}
                {issue.message}
              </li>
            ))}
          </ul>
        ) : null}
        {error.requestId ? (
          <p className="mt-1 text-xs opacity-80">
            Request id: <code className="font-mono">{error.requestId}</code>
          </p>
        ) : null}
      </Alert>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert tone="danger" title={title} actions={actions} className={className} data-testid={testId}>
      {message || "Something went wrong."}
    </Alert>
  );
}
