import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export type AlertTone = "info" | "success" | "warning" | "danger";

const tones: Record<AlertTone, { box: string; title: string; code: string }> = {
  info: {
    box: "border-accent-200 bg-accent-50 text-accent-900",
    title: "text-accent-900",
    code: "bg-accent-100 text-accent-900",
  },
  success: {
    box: "border-emerald-200 bg-emerald-50 text-emerald-900",
    title: "text-emerald-900",
    code: "bg-emerald-100 text-emerald-900",
  },
  warning: {
    box: "border-amber-200 bg-amber-50 text-amber-900",
    title: "text-amber-900",
    code: "bg-amber-100 text-amber-900",
  },
  danger: {
    box: "border-red-200 bg-red-50 text-red-900",
    title: "text-red-900",
    code: "bg-red-100 text-red-900",
  },
};

export type AlertProps = Omit<ComponentProps<"div">, "title"> & {
  tone?: AlertTone;
  title?: ReactNode;
  /** Machine-readable error code, shown in monospace (e.g. `POLICY_DENIED`). */
  code?: string | null;
  /** Controls rendered below the message (e.g. a retry link). */
  actions?: ReactNode;
};

/** Inline message box. `danger` uses role="alert"; other tones use role="status". */
export function Alert({
  tone = "info",
  title,
  code,
  actions,
  className,
  children,
  role,
  ...props
}: AlertProps) {
  const t = tones[tone];
  return (
    <div
      role={role ?? (tone === "danger" ? "alert" : "status")}
      className={cn("rounded-lg border px-4 py-3 text-sm", t.box, className)}
      {...props}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        {title ? <p className={cn("font-semibold", t.title)}>{title}</p> : null}
        {code ? (
          <code data-alert-code={code} className={cn("rounded px-1.5 py-0.5 font-mono text-xs", t.code)}>
            {code}
          </code>
        ) : null}
      </div>
      {children ? (
        <div className={cn("leading-relaxed", title || code ? "mt-1" : null)}>{children}</div>
      ) : null}
      {actions ? <div className="mt-3 flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
