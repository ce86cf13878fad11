"use client";

import { useId } from "react";
import type { FormAction } from "../types";
import { Alert } from "../ui/Alert";
import { cn } from "../ui/cn";
import { Label } from "../ui/Label";
import { SubmitButton } from "../ui/SubmitButton";
import { Textarea } from "../ui/Textarea";

export interface CommentFormProps {
  /** A React server action; receives the form data with the field `body`. */
  action: FormAction;
  /** Error from the previous submission. */
  error?: string | null;
  placeholder?: string;
  className?: string;
}

/** Comment box. Cmd/Ctrl+Enter submits. The form resets after a successful action. */
export function CommentForm({
  action,
  error,
  placeholder = "Write a comment…",
  className,
}: CommentFormProps) {
  const id = useId();
  return (
    <form action={action} className={cn("space-y-2", className)} data-testid="comment-form">
      <Label htmlFor={id}>Add a comment</Label>
      {error ? (
        <Alert tone="danger" data-testid="comment-error">
          {error}
        </Alert>
      ) : null}
      <Textarea
        id={id}
        name="body"
        required
        rows={3}
        placeholder={placeholder}
        data-testid="comment-body"
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-zinc-500">Ctrl+Enter or ⌘+Enter sends.</p>
        <SubmitButton pendingLabel="Posting…" data-testid="comment-submit">
          Comment
        </SubmitButton>
      </div>
    </form>
  );
}
