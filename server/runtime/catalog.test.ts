import { describe, expect, it } from "vitest";
import { checkSlotValues, slotValueProblem } from "./command-slots";

const cmd = {
  argSlots: [
    { name: "mode", required: true, rule: { kind: "enum" as const, values: ["a", "b"] } },
    {
      name: "dir",
      required: false,
      flag: "--dir",
      rule: { kind: "pattern" as const, pattern: "[a-z]+(/[a-z]+)*", maxLength: 20 },
    },
  ],
  envSlots: [
    { name: "LEVEL", required: false, secret: false, rule: { kind: "string" as const, maxLength: 5 } },
    { name: "TOKEN", required: false, secret: true, rule: { kind: "string" as const, maxLength: 100 } },
  ],
};

describe("slot values", () => {
  it("assemble [flag, value] in catalogue order and literal env values", () => {
    expect(checkSlotValues(cmd, { args: { dir: "x/y", mode: "b" }, env: { LEVEL: "info" } })).toEqual({
      ok: true,
      args: ["b", "--dir", "x/y"],
      env: { LEVEL: "info" },
    });
  });

  it.each([
    [{ args: {}, env: {} }, "args.mode"],
    [{ args: { mode: "c" }, env: {} }, "args.mode"],
    [{ args: { mode: "a", dir: "x/../y" }, env: {} }, "args.dir"],
    [{ args: { mode: "a", dir: "abc\ndef" }, env: {} }, "args.dir"],
    [{ args: { mode: "a", other: "x" }, env: {} }, "args.other"],
    [{ args: { mode: "a" }, env: { LEVEL: "verbose" } }, "env.LEVEL"],
    [{ args: { mode: "a" }, env: { TOKEN: "literal" } }, "env.TOKEN"],
    [{ args: { mode: "a" }, env: { LD_PRELOAD: "/x.so" } }, "env.LD_PRELOAD"],
  ])("refuses %j at %s", (values, slot) => {
    expect(checkSlotValues(cmd, values)).toMatchObject({ ok: false, slot });
  });

  it("patterns match the whole value; free values never start with `-`", () => {
    const rule = { kind: "pattern" as const, pattern: "[a-z]+", maxLength: 10 };
    expect(slotValueProblem(rule, "abc", true)).toBeNull();
    expect(slotValueProblem(rule, "abc;rm", true)).toContain("does not match");
    expect(slotValueProblem({ kind: "string", maxLength: 10 }, "-rf", true)).toContain("`-`");
    expect(slotValueProblem({ kind: "string", maxLength: 10 }, "-rf", false)).toBeNull();
    expect(slotValueProblem({ kind: "string", maxLength: 10 }, 42, true)).toBe("must be a string");
  });
});
