import type { ReactNode } from "react";

export interface ReadOnlyNoteProps {
  /** What the viewer can and cannot do here, e.g. "You can view policies but not change them." */
  children: ReactNode;
  "data-testid": string;
}

/** The muted line shown to a viewer who lacks the permission to change what a section shows. */
export function ReadOnlyNote({ children, ...rest }: ReadOnlyNoteProps) {
  return (
    <p className="text-sm text-zinc-600" data-testid={rest["data-testid"]}>
      {children}
    </p>
  );
}
