import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { activityLog, users } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { hashPassword } from "@/server/auth/password";
import type { ServiceContext } from "@/server/context";
import { systemContext } from "@/server/context";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { demoOwner } from "@/server/testing/world";
import {
  grantInstanceAdmin,
  isInstanceAdmin,
  listInstanceAdmins,
  requireInstanceAdmin,
  revokeInstanceAdmin,
} from "./admins";
import { defineInstanceSetting, readInstanceSetting, writeInstanceSetting } from "./settings";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let ownerId: string;
let otherId: string;

const as = (actor: ServiceContext["actor"]): ServiceContext => ({
  db: database.db,
  actor,
  requestId: "test",
  now: () => new Date(),
});

beforeAll(async () => {
  database = await createTestDatabase();
  demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100"))!;
  const owner = await demoOwner(database.db, demo);
  ownerId = owner.id;
  const [other] = await database.db
    .insert(users)
    .values({ email: "second@example.test", passwordHash: await hashPassword("x-password-123") })
    .returning();
  otherId = other!.id;
});

afterAll(async () => {
  await database.drop();
});

describe("instance administrators", () => {
  it("makes the first account of a fresh install the instance admin, and nobody else", async () => {
    expect(await isInstanceAdmin(database.db, ownerId)).toBe(true);
    expect(await isInstanceAdmin(database.db, otherId)).toBe(false);
    expect((await listInstanceAdmins(database.db)).map((a) => a.email)).toEqual([demo.ownerEmail]);
  });

  it("refuses a company owner's board key and a non-admin person, and logs the refusal", async () => {
    const before = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activityLog)
      .where(eq(activityLog.action, "instance.access_denied"));
    await expect(
      requireInstanceAdmin(
        as({
          type: "board_key",
          keyId: crypto.randomUUID(),
          companyId: demo.companyId,
          role: "admin",
          userId: ownerId,
        }),
      ),
    ).rejects.toMatchObject({ code: "instance_admin_required", status: 403 });
    await expect(
      requireInstanceAdmin(as({ type: "user", userId: otherId, email: "second@example.test" })),
    ).rejects.toMatchObject({
      code: "instance_admin_required",
    });
    const after = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activityLog)
      .where(eq(activityLog.action, "instance.access_denied"));
    expect(after[0]!.n - before[0]!.n).toBe(2);
    await expect(
      requireInstanceAdmin(as({ type: "user", userId: ownerId, email: demo.ownerEmail })),
    ).resolves.toEqual({
      userId: ownerId,
    });
  });

  it("a disabled account is no longer an instance admin", async () => {
    await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, ownerId));
    try {
      expect(await isInstanceAdmin(database.db, ownerId)).toBe(false);
    } finally {
      await database.db.update(users).set({ disabledAt: null }).where(eq(users.id, ownerId));
    }
  });

  it("grants and revokes, but never the last one", async () => {
    const cli = systemContext(database.db, "cli");
    await expect(revokeInstanceAdmin(cli, demo.ownerEmail)).rejects.toMatchObject({
      code: "last_instance_admin",
    });
    await grantInstanceAdmin(cli, "SECOND@example.test");
    expect(await isInstanceAdmin(database.db, otherId)).toBe(true);
    await revokeInstanceAdmin(
      as({ type: "user", userId: ownerId, email: demo.ownerEmail }),
      "second@example.test",
    );
    expect(await isInstanceAdmin(database.db, otherId)).toBe(false);
    await expect(grantInstanceAdmin(cli, "nobody@example.test")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("instance settings", () => {
  const flag = defineInstanceSetting("testFlag", z.object({ on: z.boolean() }), { on: false });

  it("reads the safe default, writes for instance admins only, and falls back on a malformed value", async () => {
    expect(await readInstanceSetting(database.db, flag)).toEqual({ on: false });
    await expect(
      writeInstanceSetting(as({ type: "user", userId: otherId, email: "second@example.test" }), flag, {
        on: true,
      }),
    ).rejects.toMatchObject({ code: "instance_admin_required" });
    await expect(
      writeInstanceSetting(as({ type: "user", userId: ownerId, email: demo.ownerEmail }), flag, {
        on: "yes",
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    await writeInstanceSetting(as({ type: "user", userId: ownerId, email: demo.ownerEmail }), flag, {
      on: true,
    });
    expect(await readInstanceSetting(database.db, flag)).toEqual({ on: true });
    await database.db.execute(
      sql`update instance_settings set value = '"garbage"'::jsonb where key = 'testFlag'`,
    );
    expect(await readInstanceSetting(database.db, flag)).toEqual({ on: false });
  });
});
