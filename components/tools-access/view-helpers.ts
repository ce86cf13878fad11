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

const byteFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** "512 B", "1.5 KB", "2.3 MB" */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${byteFormat.format(bytes / 1024)} KB`;
  return `${byteFormat.format(bytes / (1024 * 1024))} MB`;
}
