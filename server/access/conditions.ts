import { globMatch } from "@/server/contracts/glob";
import type { ArgumentConstraint, PolicyConditions, TimeWindow } from "@/server/contracts/policy-schema";
import type { AccessContext } from "./types";

const MISSING = Symbol("missing");

/** Resolves an RFC 6901 pointer in a JSON value; MISSING when any segment is absent. */
export function getPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let current: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return MISSING;
      const i = Number(key);
      if (i >= current.length) return MISSING;
      current = current[i];
    } else if (current !== null && typeof current === "object") {
      if (!Object.hasOwn(current, key)) return MISSING;
      current = (current as Record<string, unknown>)[key];
    } else {
      return MISSING;
    }
  }
  return current;
}

/** One argument constraint. A missing value satisfies only `not_exists` (and `not_in`/`not_equals` do not). */
export function constraintHolds(c: ArgumentConstraint, args: unknown): boolean {
  const v = getPointer(args, c.path);
  switch (c.op) {
    case "exists":
      return v !== MISSING;
    case "not_exists":
      return v === MISSING;
  }
  if (v === MISSING) return false;
  switch (c.op) {
    case "equals":
      return v === c.value;
    case "not_equals":
      return v !== c.value;
    case "in":
      return c.value.some((x) => x === v);
    case "not_in":
      return !c.value.some((x) => x === v);
    case "prefix":
      return typeof v === "string" && v.startsWith(c.value);
    case "suffix":
      return typeof v === "string" && v.endsWith(c.value);
    case "contains":
      return typeof v === "string" && v.includes(c.value);
    case "glob":
      return typeof v === "string" && v.length <= 10_000 && globMatch(c.value, v);
    case "max_length":
      return (typeof v === "string" || Array.isArray(v)) && v.length <= c.value;
    case "lte":
      return typeof v === "number" && v <= c.value;
    case "gte":
      return typeof v === "number" && v >= c.value;
  }
}

const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Is `now` inside the window, in the window's time zone? `end` is exclusive; end < start wraps midnight. */
// Building an Intl.DateTimeFormat costs tens of microseconds; one per time zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    if (formatters.size < 500) formatters.set(timeZone, f);
  }
  return f;
}

export function inTimeWindow(w: TimeWindow, now: Date): boolean {
  const parts = formatterFor(w.timezone).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = WEEKDAY[get("weekday")] ?? 0;
  const minutes = Number(get("hour")) * 60 + Number(get("minute"));
  if (w.start === undefined || w.end === undefined) return !w.days || w.days.includes(day);
  const toMin = (hm: string) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));
  const start = toMin(w.start);
  const end = toMin(w.end);
  if (start <= end) return (!w.days || w.days.includes(day)) && minutes >= start && minutes < end;
  // Overnight window: the part after midnight belongs to the previous day's window.
  if (minutes >= start) return !w.days || w.days.includes(day);
  const previousDay = day === 1 ? 7 : day - 1;
  return minutes < end && (!w.days || w.days.includes(previousDay));
}

export interface ConditionInput {
  context: AccessContext;
  /** undefined → the arguments are not known (tools/list): argument constraints cannot be decided. */
  args: unknown | undefined;
  now: Date;
}

/** true / false, or "unknown" when argument constraints apply but no arguments were given. */
export function conditionsHold(conditions: PolicyConditions, input: ConditionInput): boolean | "unknown" {
  if (conditions.requireIssue && !input.context.issueId) return false;
  if (conditions.requireProject && !input.context.projectId) return false;
  if (conditions.requireRoutine && !input.context.routineId) return false;
  if (conditions.timeWindow && !inTimeWindow(conditions.timeWindow, input.now)) return false;
  if (conditions.arguments) {
    if (input.args === undefined) return "unknown";
    return conditions.arguments.every((c) => constraintHolds(c, input.args));
  }
  return true;
}
