/**
 * Date and duration formatting for views. Deterministic: every function that depends on the
 * current time takes an optional `now`, and absolute times are rendered in UTC so server and
 * client output match.
 */

export type DateInput = string | number | Date;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** "2025-03-04 14:05 UTC" */
export function formatAbsolute(value: DateInput): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return "Unknown time";
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "4 Mar 2025" (UTC) */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return "Unknown date";
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * "just now", "3 min ago", "2 hr ago", "5 days ago"; older than 30 days falls back to a date.
 * Future times read "in 3 min".
 */
export function formatRelative(value: DateInput, now: DateInput = Date.now()): string {
  const then = toDate(value).getTime();
  const ref = toDate(now).getTime();
  if (Number.isNaN(then) || Number.isNaN(ref)) return "Unknown time";
  const diff = ref - then;
  const future = diff < 0;
  const seconds = Math.floor(Math.abs(diff) / 1000);
  if (seconds < 45) return future ? "in a few seconds" : "just now";
  const minutes = Math.max(1, Math.floor(seconds / 60));
  let text: string;
  if (minutes < 60) {
    text = `${minutes} min`;
  } else {
    const hours = Math.floor(minutes / 60);
    if (hours < 24) {
      text = `${hours} hr`;
    } else {
      const days = Math.floor(hours / 24);
      if (days > 30) return formatDate(then);
      text = days === 1 ? "1 day" : `${days} days`;
    }
  }
  return future ? `in ${text}` : `${text} ago`;
}

/** "850 ms", "42s", "3m 12s", "1h 04m" */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const totalSeconds = Math.floor(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes < 60) return `${minutes}m ${pad(seconds)}s`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${pad(minutes % 60)}m`;
}

/**
 * Duration between `start` and `end`. A missing `end` means "still running" and measures to `now`.
 * Returns null when there is no start.
 */
export function durationBetween(
  start: DateInput | null | undefined,
  end: DateInput | null | undefined,
  now: DateInput = Date.now(),
): number | null {
  if (start === null || start === undefined) return null;
  const s = toDate(start).getTime();
  const e = toDate(end ?? now).getTime();
  if (Number.isNaN(s) || Number.isNaN(e)) return null;
  return Math.max(0, e - s);
}

/** "in_progress" → "In progress" */
export function humanize(value: string): string {
  const text = value.replace(/[_-]+/g, " ").trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : value;
}

/** "14:05:09" (UTC), for event timelines. */
export function formatClock(value: DateInput): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return "--:--:--";
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
