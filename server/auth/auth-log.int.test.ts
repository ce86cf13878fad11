import { NextRequest } from "next/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/[...nextauth]/route";
import { captureConsole } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

// Issue 34: every unknown `/api/auth/<x>` wrote a full stack trace to the server log (anyone
// can send them). Now one line.

let database: TestDatabase;
const logs: string[] = [];

beforeAll(async () => {
  ({ database } = await demoWorld());
  captureConsole(logs);
});
afterAll(async () => {
  await closeDemoWorld(database);
});

it("an unknown /api/auth/<x> is logged as one line without a stack", async () => {
  const before = logs.length;
  const res = await authRoute.GET(
    new NextRequest("http://localhost:3100/api/auth/no-such-action", { headers: { host: "localhost:3100" } }),
  );
  expect(res.status).toBe(400);
  const lines = logs.slice(before);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("auth.request_refused");
  expect(lines[0]).toContain("UnknownAction");
  expect(lines.join("\n")).not.toMatch(/\bat .+:\d+:\d+|"stack"/);
});
