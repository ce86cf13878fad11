// Client-side checks of a secret's name and value; the server checks again.

/** The server's name rule: `GITHUB_TOKEN`. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;
export const MAX_VALUE_BYTES = 16 * 1024;

export function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

export function valueError(value: string): string | null {
  if (value.length === 0) return "Enter the value.";
  if (byteLength(value) > MAX_VALUE_BYTES) return "The value must be at most 16 KiB.";
  return null;
}
