import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { connectAssistant } from "../testing/public-mcp";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";
import { OPERATIONS } from "./operations";
import { listTools } from "./tools";

let database: TestDatabase;
let companyId: string;
let ownerId: string;

beforeAll(async () => {
  const world = await demoWorld();
  database = world.database;
  companyId = world.demo.companyId;
  const [owner] = await database.db.select().from(users).where(eq(users.email, world.demo.ownerEmail));
  ownerId = owner!.id;
});
afterAll(() => closeDemoWorld(database));

describe("the operation registry", () => {
  it("has unique operation and tool names and strict schemas", () => {
    // Spec 004, "Expanded direct assistant tools": 37 explicitly registered operations.
    expect(OPERATIONS).toHaveLength(37);
    const names = OPERATIONS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const tools = listTools().map((t) => t.name);
    expect(new Set(tools).size).toBe(tools.length);
    for (const op of OPERATIONS) {
      expect(op.input.safeParse({ __proto_probe: 1 }).success, op.name).toBe(false);
      if (op.mutation) expect(Object.keys(op.input.shape), op.name).toContain("requestId");
    }
  });

  it("paperclip_search_api lists exactly the registry", async () => {
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const result = await conn.call("paperclip_search_api", {});
    const listed = (result.structuredContent as { operations: { operation: string }[] }).operations;
    expect(listed.map((o) => o.operation)).toEqual(OPERATIONS.map((op) => op.name));
  });

  it("paperclip_call_api refuses an unknown operation, a path, a URL or an actor field", async () => {
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const code = async (args: Record<string, unknown>) =>
      ((await conn.call("paperclip_call_api", args)).structuredContent as { error?: { code: string } }).error
        ?.code;
    expect(await code({ operation: "no_such_operation" })).toBe("unknown_operation");
    expect(await code({ operation: "/api/companies" })).toBe("unknown_operation");
    expect(await code({ operation: "connection", path: "/api/companies" })).toBe("arguments_invalid");
    expect(await code({ operation: "connection", url: "http://example.com" })).toBe("arguments_invalid");
    expect(await code({ operation: "connection", actor: { userId: ownerId } })).toBe("arguments_invalid");
    expect(await code({ operation: "connection", arguments: { actorId: ownerId } })).toBe(
      "arguments_invalid",
    );
    const ok = await conn.api("connection");
    expect((ok as { person: { id: string } }).person.id).toBe(ownerId);
  });
});
