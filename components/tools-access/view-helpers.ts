import { cn, focusRing } from "../ui/cn";

/** The accent link style of the Tools & Access screens. */
export const linkClass = cn("rounded font-medium text-accent-700 hover:underline", focusRing);

/** Pretty JSON for a details block; never throws (a cycle or a BigInt shows as text). */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
