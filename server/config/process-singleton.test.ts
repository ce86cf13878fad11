import { describe, expect, it } from "vitest";
import { processCell, processSingleton } from "./process-singleton";

describe("processSingleton", () => {
  it("creates the value once per key, and a module reloaded by dev sees the same one", async () => {
    let made = 0;
    const a = processSingleton("test.once", () => ({ n: ++made }));
    const b = processSingleton("test.once", () => ({ n: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
    // A second copy of the module (what a dev reload or a second bundle is) shares the value.
    const copy = (await import(
      `./process-singleton?copy=${Date.now()}`
    )) as typeof import("./process-singleton");
    expect(copy.processSingleton("test.once", () => ({ n: -1 }))).toBe(a);
  });

  it("keeps a falsy value instead of creating it again", () => {
    let made = 0;
    const make = (v: number) => () => {
      made++;
      return v;
    };
    expect(processSingleton("test.falsy", make(0))).toBe(0);
    expect(processSingleton("test.falsy", make(1))).toBe(0);
    expect(made).toBe(1);
  });

  it("gives a replaceable cell per key", () => {
    const cell = processCell<string>("test.cell");
    expect(cell.current).toBeUndefined();
    cell.current = "x";
    expect(processCell<string>("test.cell").current).toBe("x");
  });
});
