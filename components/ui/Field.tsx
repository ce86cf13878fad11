import type { ReactNode } from "react";
import { cn } from "./cn";
import { Label } from "./Label";

/** Props a Field hands to its control so label, hint and error are wired up for assistive tech. */
export interface FieldControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  required?: boolean;
}

export interface FieldProps {
  /** The control's id; the label's `htmlFor` points at it. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  className?: string;
  "data-testid"?: string;
  /**
   * Either a render function receiving the control props (recommended), or a control
   * that already carries `id={id}` itself.
   */
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
}

/** Ids used for a field's hint and error text. */
export function fieldIds(id: string): { hint: string; error: string } {
  return { hint: `${id}-hint`, error: `${id}-error` };
}

export function Field({ id, label, hint, error, required, className, children, ...rest }: FieldProps) {
  const ids = fieldIds(id);
  const hasError = error !== undefined && error !== null && error !== false && error !== "";
  const describedBy = [hint ? ids.hint : null, hasError ? ids.error : null].filter(Boolean).join(" ");
  const control: FieldControlProps = {
    id,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
    ...(hasError ? { "aria-invalid": true as const } : {}),
    ...(required ? { required: true } : {}),
  };
  return (
    <div className={cn("space-y-1.5", className)} data-testid={rest["data-testid"]}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {typeof children === "function" ? children(control) : children}
      {hint ? (
        <p id={ids.hint} className="text-sm text-zinc-500">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={ids.error} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
