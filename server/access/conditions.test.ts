import { describe, expect, it } from "vitest";
import { ArgumentConstraint, PolicyConditions, TimeWindow } from "@/server/contracts/policy-schema";
import { type ConditionInput, conditionsHold, constraintHolds, getPointer, inTimeWindow } from "./conditions";
import type { AccessContext } from "./types";

const c = (raw: unknown) => ArgumentConstraint.parse(raw);
const exists = (args: unknown, path: string) => constraintHolds(c({ path, op: "exists" }), args);

describe("getPointer (RFC 6901)", () => {
  const doc = {
    to: ["ops@acme.example", "cfo@acme.example"],
    headers: { "x-reply/to": "a", "a~b": "b", "~1": "c", "": "empty key", "0": "zero key" },
    nested: { deep: { deeper: { value: 42 } } },
    nothing: null,
    falsy: 0,
  };

  it("resolves the whole document, object keys and array indices", () => {
    expect(getPointer(doc, "")).toBe(doc);
    expect(getPointer(doc, "/to")).toBe(doc.to);
    expect(getPointer(doc, "/to/0")).toBe("ops@acme.example");
    expect(getPointer(doc, "/to/1")).toBe("cfo@acme.example");
    expect(getPointer(doc, "/nested/deep/deeper/value")).toBe(42);
    expect(getPointer(doc, "/nothing")).toBeNull();
    expect(getPointer(doc, "/falsy")).toBe(0);
    expect(getPointer(doc, "/headers/0")).toBe("zero key");
    expect(getPointer(doc, "/headers/")).toBe("empty key");
  });

  it("unescapes ~1 to / and ~0 to ~, in that order", () => {
    expect(getPointer(doc, "/headers/x-reply~1to")).toBe("a");
    expect(getPointer(doc, "/headers/a~0b")).toBe("b");
    // `~01` is `~1` (the literal key), not `/`.
    expect(getPointer(doc, "/headers/~01")).toBe("c");
    expect(exists(doc, "/headers/x-reply/to")).toBe(false);
  });

  it("treats absent keys, bad indices and stepping into scalars as missing", () => {
    for (const path of [
      "/missing",
      "/to/2",
      "/to/-",
      "/to/01",
      "/to/-1",
      "/to/1.0",
      "/to/length",
      "/nothing/x",
      "/falsy/x",
      "/to/0/x",
      "/nested/deep/deeper/value/x",
    ]) {
      expect(exists(doc, path), path).toBe(false);
    }
  });

  it("only sees own properties (no prototype keys)", () => {
    expect(exists({}, "/toString")).toBe(false);
    expect(exists({}, "/constructor")).toBe(false);
    expect(exists({}, "/__proto__")).toBe(false);
    expect(exists(JSON.parse('{"__proto__": {"x": 1}}'), "/__proto__/x")).toBe(true);
  });
});

describe("constraintHolds", () => {
  const args = {
    repo: "acme/api",
    title: "Fix the login bug",
    labels: ["bug", "p1"],
    count: 10,
    draft: false,
    assignee: null,
    "a/b": { "c~d": "escaped" },
  };

  it.each([
    // exists / not_exists
    [{ path: "/repo", op: "exists" }, true],
    [{ path: "/assignee", op: "exists" }, true], // null is present
    [{ path: "/milestone", op: "exists" }, false],
    [{ path: "/milestone", op: "not_exists" }, true],
    [{ path: "/draft", op: "not_exists" }, false],
    [{ path: "/a~1b/c~0d", op: "exists" }, true],
    // equals / not_equals (strict, scalars)
    [{ path: "/repo", op: "equals", value: "acme/api" }, true],
    [{ path: "/count", op: "equals", value: 10 }, true],
    [{ path: "/count", op: "equals", value: "10" }, false],
    [{ path: "/draft", op: "equals", value: false }, true],
    [{ path: "/assignee", op: "equals", value: null }, true],
    [{ path: "/labels", op: "equals", value: "bug" }, false],
    [{ path: "/repo", op: "not_equals", value: "acme/web" }, true],
    [{ path: "/repo", op: "not_equals", value: "acme/api" }, false],
    [{ path: "/missing", op: "not_equals", value: "x" }, false], // missing satisfies only not_exists
    // in / not_in
    [{ path: "/repo", op: "in", value: ["acme/web", "acme/api"] }, true],
    [{ path: "/repo", op: "in", value: ["acme/web"] }, false],
    [{ path: "/count", op: "in", value: ["10"] }, false],
    [{ path: "/repo", op: "not_in", value: ["acme/secrets"] }, true],
    [{ path: "/repo", op: "not_in", value: ["acme/api"] }, false],
    [{ path: "/missing", op: "not_in", value: ["x"] }, false],
    // prefix / suffix / contains (strings only)
    [{ path: "/repo", op: "prefix", value: "acme/" }, true],
    [{ path: "/repo", op: "prefix", value: "evil/" }, false],
    [{ path: "/repo", op: "suffix", value: "/api" }, true],
    [{ path: "/repo", op: "suffix", value: "/web" }, false],
    [{ path: "/title", op: "contains", value: "login" }, true],
    [{ path: "/title", op: "contains", value: "Login" }, false],
    [{ path: "/count", op: "contains", value: "1" }, false],
    [{ path: "/labels", op: "contains", value: "bug" }, false],
    [{ path: "/labels/0", op: "prefix", value: "b" }, true],
    // glob
    [{ path: "/repo", op: "glob", value: "acme/*" }, true],
    [{ path: "/repo", op: "glob", value: "acme/?pi" }, true],
    [{ path: "/repo", op: "glob", value: "evil/*" }, false],
    [{ path: "/count", op: "glob", value: "*" }, false],
    // max_length (strings and arrays)
    [{ path: "/title", op: "max_length", value: 17 }, true],
    [{ path: "/title", op: "max_length", value: 16 }, false],
    [{ path: "/labels", op: "max_length", value: 2 }, true],
    [{ path: "/labels", op: "max_length", value: 1 }, false],
    [{ path: "/count", op: "max_length", value: 100 }, false],
    // lte / gte (numbers only)
    [{ path: "/count", op: "lte", value: 10 }, true],
    [{ path: "/count", op: "lte", value: 9.5 }, false],
    [{ path: "/count", op: "gte", value: 10 }, true],
    [{ path: "/count", op: "gte", value: 11 }, false],
    [{ path: "/repo", op: "gte", value: 0 }, false],
    [{ path: "/missing", op: "lte", value: 0 }, false],
  ])("%j → %s", (raw, expected) => {
    expect(constraintHolds(c(raw), args)).toBe(expected);
  });

  it("does not glob-match absurdly long values", () => {
    expect(constraintHolds(c({ path: "/v", op: "glob", value: "*" }), { v: "x".repeat(10_000) })).toBe(true);
    expect(constraintHolds(c({ path: "/v", op: "glob", value: "*" }), { v: "x".repeat(10_001) })).toBe(false);
  });

  it("the schema refuses malformed constraints", () => {
    for (const raw of [
      { path: "repo", op: "exists" }, // no leading slash
      { path: "/a/b/c/d/e/f/g/h/i", op: "exists" }, // 9 segments
      { path: "/repo", op: "matches", value: ".*" }, // unknown op
      { path: "/repo", op: "in", value: [] },
      { path: "/repo", op: "equals", value: { nested: true } },
      { path: "/repo", op: "glob", value: "" },
      { path: "/repo", op: "max_length", value: -1 },
      { path: "/repo", op: "exists", value: 1 }, // strict
    ]) {
      expect(ArgumentConstraint.safeParse(raw).success, JSON.stringify(raw)).toBe(false);
    }
  });
});

describe("inTimeWindow", () => {
  const w = (raw: unknown) => TimeWindow.parse(raw);
  const at = (iso: string) => new Date(iso);
  const office = w({ days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00" });

  it("defaults to UTC, start inclusive, end exclusive", () => {
    expect(office.timezone).toBe("UTC");
    expect(inTimeWindow(office, at("2024-06-04T08:59:59Z"))).toBe(false);
    expect(inTimeWindow(office, at("2024-06-04T09:00:00Z"))).toBe(true);
    expect(inTimeWindow(office, at("2024-06-04T16:59:59Z"))).toBe(true);
    expect(inTimeWindow(office, at("2024-06-04T17:00:00Z"))).toBe(false);
  });

  it("uses ISO weekdays, 1 = Monday … 7 = Sunday", () => {
    expect(inTimeWindow(office, at("2024-06-03T10:00:00Z"))).toBe(true); // Monday
    expect(inTimeWindow(office, at("2024-06-07T10:00:00Z"))).toBe(true); // Friday
    expect(inTimeWindow(office, at("2024-06-08T10:00:00Z"))).toBe(false); // Saturday
    expect(inTimeWindow(office, at("2024-06-09T10:00:00Z"))).toBe(false); // Sunday
    const sundays = w({ days: [7] });
    expect(inTimeWindow(sundays, at("2024-06-09T00:00:00Z"))).toBe(true);
    expect(inTimeWindow(sundays, at("2024-06-09T23:59:59Z"))).toBe(true);
    expect(inTimeWindow(sundays, at("2024-06-10T00:00:00Z"))).toBe(false);
  });

  it("a window without days applies every day; an empty window {} always holds", () => {
    const lunch = w({ start: "12:00", end: "13:00" });
    expect(inTimeWindow(lunch, at("2024-06-09T12:30:00Z"))).toBe(true);
    expect(inTimeWindow(lunch, at("2024-06-09T13:30:00Z"))).toBe(false);
    expect(inTimeWindow(w({}), at("2024-06-09T03:00:00Z"))).toBe(true);
  });

  it("handles midnight as 00:00, not 24:00", () => {
    const firstHour = w({ start: "00:00", end: "01:00" });
    expect(inTimeWindow(firstHour, at("2024-06-04T00:00:00Z"))).toBe(true);
    expect(inTimeWindow(firstHour, at("2024-06-04T00:59:00Z"))).toBe(true);
    expect(inTimeWindow(firstHour, at("2024-06-04T23:59:00Z"))).toBe(false);
    const evening = w({ start: "18:00", end: "00:00" }); // wraps: 18:00 until midnight
    expect(inTimeWindow(evening, at("2024-06-04T23:59:00Z"))).toBe(true);
    expect(inTimeWindow(evening, at("2024-06-04T00:00:00Z"))).toBe(false);
  });

  it("wraps overnight windows, attributing the hours after midnight to the previous day", () => {
    const weeknights = w({ days: [1, 2, 3, 4, 5], start: "22:00", end: "06:00" });
    expect(inTimeWindow(weeknights, at("2024-06-07T22:00:00Z"))).toBe(true); // Fri 22:00
    expect(inTimeWindow(weeknights, at("2024-06-08T05:59:00Z"))).toBe(true); // Sat 05:59, Friday's night
    expect(inTimeWindow(weeknights, at("2024-06-08T06:00:00Z"))).toBe(false); // end exclusive
    expect(inTimeWindow(weeknights, at("2024-06-08T22:30:00Z"))).toBe(false); // Sat night
    expect(inTimeWindow(weeknights, at("2024-06-10T01:00:00Z"))).toBe(false); // Mon 01:00, Sunday's night
    expect(inTimeWindow(weeknights, at("2024-06-11T01:00:00Z"))).toBe(true); // Tue 01:00, Monday's night
    expect(inTimeWindow(weeknights, at("2024-06-04T12:00:00Z"))).toBe(false); // midday
  });

  it("evaluates in the window's time zone", () => {
    const tokyo = w({ days: [1, 2, 3, 4, 5], start: "09:00", end: "18:00", timezone: "Asia/Tokyo" });
    expect(inTimeWindow(tokyo, at("2024-06-04T00:30:00Z"))).toBe(true); // Tue 09:30 JST
    expect(inTimeWindow(tokyo, at("2024-06-04T10:30:00Z"))).toBe(false); // Tue 19:30 JST
    expect(inTimeWindow(tokyo, at("2024-06-07T23:30:00Z"))).toBe(false); // Sat 08:30 JST
    const kolkata = w({ start: "09:00", end: "09:30", timezone: "Asia/Kolkata" }); // UTC+05:30
    expect(inTimeWindow(kolkata, at("2024-06-04T03:30:00Z"))).toBe(true);
    expect(inTimeWindow(kolkata, at("2024-06-04T04:00:00Z"))).toBe(false);
  });

  it("follows daylight saving time (America/New_York)", () => {
    const ny = w({ days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00", timezone: "America/New_York" });
    // Friday 8 March 2024, EST (UTC-5)
    expect(inTimeWindow(ny, at("2024-03-08T13:30:00Z"))).toBe(false); // 08:30 EST
    expect(inTimeWindow(ny, at("2024-03-08T14:30:00Z"))).toBe(true); // 09:30 EST
    expect(inTimeWindow(ny, at("2024-03-08T21:30:00Z"))).toBe(true); // 16:30 EST
    // Monday 11 March 2024, EDT (UTC-4) after the switch on Sunday 10 March
    expect(inTimeWindow(ny, at("2024-03-11T13:30:00Z"))).toBe(true); // 09:30 EDT
    expect(inTimeWindow(ny, at("2024-03-11T21:30:00Z"))).toBe(false); // 17:30 EDT
  });

  it("follows daylight saving time (Europe/Berlin), including the skipped and repeated hour", () => {
    const small = w({ start: "02:00", end: "03:00", timezone: "Europe/Berlin" });
    // 31 March 2024: 02:00 CET jumps to 03:00 CEST, the window's hour does not exist that night.
    expect(inTimeWindow(small, at("2024-03-31T00:59:00Z"))).toBe(false); // 01:59 CET
    expect(inTimeWindow(small, at("2024-03-31T01:00:00Z"))).toBe(false); // 03:00 CEST
    // 27 October 2024: 03:00 CEST falls back to 02:00 CET, the window's hour happens twice.
    expect(inTimeWindow(small, at("2024-10-27T00:30:00Z"))).toBe(true); // 02:30 CEST
    expect(inTimeWindow(small, at("2024-10-27T01:30:00Z"))).toBe(true); // 02:30 CET
    expect(inTimeWindow(small, at("2024-10-27T02:30:00Z"))).toBe(false); // 03:30 CET
  });

  it("the schema refuses malformed windows", () => {
    for (const raw of [
      { start: "9:00", end: "17:00" },
      { start: "24:00", end: "23:00" },
      { start: "09:60", end: "17:00" },
      { start: "09:00" },
      { days: [0] },
      { days: [8] },
      { days: [] },
      { timezone: "Not/AZone" },
      { start: "09:00", end: "17:00", extra: true },
    ]) {
      expect(TimeWindow.safeParse(raw).success, JSON.stringify(raw)).toBe(false);
    }
  });
});

describe("conditionsHold", () => {
  const ctx: AccessContext = { companyId: "c", agentId: "a", sessionValid: true };
  const input = (over: Partial<ConditionInput> = {}): ConditionInput => ({
    context: ctx,
    args: {},
    now: new Date("2024-06-04T10:30:00Z"),
    ...over,
  });
  const cond = (raw: unknown) => PolicyConditions.parse(raw);

  it("no conditions always hold", () => {
    expect(conditionsHold(cond({}), input())).toBe(true);
    expect(conditionsHold(cond({}), input({ args: undefined }))).toBe(true);
  });

  it("requireIssue / requireProject / requireRoutine need the context id", () => {
    expect(conditionsHold(cond({ requireIssue: true }), input())).toBe(false);
    expect(conditionsHold(cond({ requireIssue: true }), input({ context: { ...ctx, issueId: "i" } }))).toBe(
      true,
    );
    expect(conditionsHold(cond({ requireIssue: true }), input({ context: { ...ctx, issueId: null } }))).toBe(
      false,
    );
    expect(conditionsHold(cond({ requireProject: true }), input())).toBe(false);
    expect(
      conditionsHold(cond({ requireProject: true }), input({ context: { ...ctx, projectId: "p" } })),
    ).toBe(true);
    expect(conditionsHold(cond({ requireRoutine: true }), input())).toBe(false);
    expect(
      conditionsHold(cond({ requireRoutine: true }), input({ context: { ...ctx, routineId: "r" } })),
    ).toBe(true);
    expect(conditionsHold(cond({ requireIssue: false }), input())).toBe(true);
  });

  it("argument constraints are unknown without arguments (tools/list), decided with them", () => {
    const c1 = cond({ arguments: [{ path: "/repo", op: "prefix", value: "acme/" }] });
    expect(conditionsHold(c1, input({ args: undefined }))).toBe("unknown");
    expect(conditionsHold(c1, input({ args: { repo: "acme/api" } }))).toBe(true);
    expect(conditionsHold(c1, input({ args: { repo: "evil/api" } }))).toBe(false);
    expect(conditionsHold(c1, input({ args: {} }))).toBe(false);
  });

  it("a failing context or time condition decides even when arguments are unknown", () => {
    const withIssue = cond({ requireIssue: true, arguments: [{ path: "/x", op: "exists" }] });
    expect(conditionsHold(withIssue, input({ args: undefined }))).toBe(false);
    const weekend = cond({ timeWindow: { days: [6, 7] }, arguments: [{ path: "/x", op: "exists" }] });
    expect(conditionsHold(weekend, input({ args: undefined }))).toBe(false); // Tuesday
    expect(conditionsHold(weekend, input({ args: undefined, now: new Date("2024-06-08T10:00:00Z") }))).toBe(
      "unknown",
    );
  });

  it("all argument constraints must hold", () => {
    const both = cond({
      arguments: [
        { path: "/repo", op: "prefix", value: "acme/" },
        { path: "/count", op: "lte", value: 5 },
      ],
    });
    expect(conditionsHold(both, input({ args: { repo: "acme/api", count: 5 } }))).toBe(true);
    expect(conditionsHold(both, input({ args: { repo: "acme/api", count: 6 } }))).toBe(false);
  });

  it("the schema refuses unknown condition keys", () => {
    expect(PolicyConditions.safeParse({ requireAgent: true }).success).toBe(false);
    expect(PolicyConditions.safeParse({ arguments: [] }).success).toBe(false);
  });
});
