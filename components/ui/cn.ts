export type ClassValue = string | false | null | undefined | 0;

/** Join class names, skipping falsy values. No conflict resolution: later classes do not override earlier ones. */
export function cn(...classes: ClassValue[]): string {
  return classes.filter(Boolean).join(" ");
}

/** Shared keyboard focus ring for interactive elements. */
export const focusRing =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600";
