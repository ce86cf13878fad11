import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export interface KeyValueItem {
  /** Term; also used as the React key, so keep labels unique within a list. */
  label: string;
  value: ReactNode;
}

export type KeyValueListProps = ComponentProps<"dl"> & {
  items: KeyValueItem[];
  /** Shown when a value is null, undefined or an empty string. Defaults to an em dash. */
  emptyValue?: ReactNode;
};

/** A definition list of label/value pairs; the label column stays narrow so values never squeeze. */
export function KeyValueList({ items, emptyValue = "—", className, ...props }: KeyValueListProps) {
  return (
    <dl className={cn("divide-y divide-zinc-100 text-sm", className)} {...props}>
      {items.map((item) => {
        const isEmpty = item.value === null || item.value === undefined || item.value === "";
        return (
          <div key={item.label} className="grid grid-cols-[minmax(5rem,9rem)_minmax(0,1fr)] gap-3 py-2.5">
            <dt className="font-medium text-zinc-500">{item.label}</dt>
            <dd className={cn("min-w-0 break-words", isEmpty ? "text-zinc-500" : "text-zinc-900")}>
              {isEmpty ? emptyValue : item.value}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
