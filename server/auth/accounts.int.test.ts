import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/[...nextauth]/route";
import * as setPasswordRoute from "@/app/api/auth/set-password/route";
import * as signInRoute from "@/app/api/auth/sign-in/route";
import * as acceptRoute from "@/app/api/companies/[companyId]/approvals/[approvalId]/accept/route";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as memberRoute from "@/app/api/companies/[companyId]/members/[userId]/route";
import * as membersRoute from "@/app/api/companies/[companyId]/members/route";
import * as companyRoute from "@/app/api/companies/[companyId]/route";
import * as companiesRoute from "@/app/api/companies/route";
import * as passwordRoute from "@/app/api/me/password/route";
import * as everywhereRoute from "@/app/api/me/sign-out-everywhere/route";
import { activityLog, passwordSetTokens, signInThrottles, userSessions, users } from "@/db/schema";
import { proposeFormalApproval } from "@/server/approvals/formal";
import type { DemoCredentials } from "@/server/core/seed";
import { setRouteClock } from "@/server/http/route";
import { bareJwtCookie, type CallResult, call, sessionCookie } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, ownerSession, type TestDatabase } from "@/server/testing/world";
import { pruneThrottles } from "./throttle";
import { hashToken } from "./tokens";

let database: TestDatabase;
let demo: DemoCredentials;
let ownerId: string;
let ownerCookie: string;
let clockOffsetMs = 0;

const SOURCE = "203.0.113.7";
const signIn = (email: string, password: string, source = SOURCE) =>
  call<{ error?: { code: string; message: string }; user?: { id: string } }>(
    signInRoute.POST,
    "POST",
    "/api/auth/sign-in",
    { body: { email, password }, headers: { "x-paperclip-remote-address": source } },
  );
const cookieOf = (res: CallResult) => res.headers.get("set-cookie")!.split(";")[0]!;
const whoAmI = (cookie: string) => call(companiesRoute.GET, "GET", "/api/companies", { cookie });

async function addMember(email: string, role: string) {
  const res = await call<{ member: { userId: string }; setPasswordPath: string | null }>(
    membersRoute.POST,
    "POST",
    "/",
    { cookie: ownerCookie, params: { companyId: demo.companyId }, body: { email, role } },
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

/** Adds a member and has them set a password through their one-time link. */
async function memberWithPassword(email: string, role: string, password: string) {
  const added = await addMember(email, role);
  const token = added.setPasswordPath!.split("#token=")[1]!;
  const set = await call(setPasswordRoute.POST, "POST", "/", { body: { token, password } });
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  return { userId: added.member.userId, token };
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  setRouteClock(() => new Date(Date.now() + clockOffsetMs));
  const owner = await ownerSession(database.db, demo);
  ownerId = owner.id;
  ownerCookie = owner.cookie;
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  setRouteClock(null);
  await closeDemoWorld(database);
});

describe("revocable sessions", () => {
  it("signing in creates a session row named by the cookie (only its hash stored)", async () => {
    const res = await signIn(demo.ownerEmail, demo.ownerPassword, "198.51.100.1");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^authjs\.session-token=/);
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly/);
    expect((await whoAmI(cookie)).status).toBe(200);
    const rows = await database.db.select().from(userSessions).where(eq(userSessions.userId, ownerId));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a valid next-auth JWT that names no session row", async () => {
    const bare = await bareJwtCookie(ownerId, demo.ownerEmail);
    expect((await whoAmI(bare)).status).toBe(401);
  });

  it("a cookie captured before sign-out is refused afterwards (next-auth sign-out deletes the row)", async () => {
    const cookie = cookieOf(await signIn(demo.ownerEmail, demo.ownerPassword, "198.51.100.2"));
    expect((await whoAmI(cookie)).status).toBe(200);
    // next-auth's own handlers: the CSRF token, then POST /api/auth/signout.
    const csrfRes = await authRoute.GET(
      new NextRequest("http://localhost:3100/api/auth/csrf", { headers: { host: "localhost:3100", cookie } }),
    );
    const csrf = { json: (await csrfRes.json()) as { csrfToken: string } };
    const csrfCookie = csrfRes.headers.get("set-cookie")!.split(";")[0]!;
    const out = await authRoute.POST(
      new NextRequest("http://localhost:3100/api/auth/signout", {
        method: "POST",
        headers: {
          host: "localhost:3100",
          cookie: `${cookie}; ${csrfCookie}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ csrfToken: csrf.json.csrfToken, callbackUrl: "/signin" }),
      }),
    );
    expect(out.status).toBeLessThan(400);
    expect((await whoAmI(cookie)).status).toBe(401);
  });

  it("sign out everywhere ends another browser's session", async () => {
    const a = cookieOf(await signIn(demo.ownerEmail, demo.ownerPassword, "198.51.100.3"));
    const b = cookieOf(await signIn(demo.ownerEmail, demo.ownerPassword, "198.51.100.3"));
    expect((await whoAmI(b)).status).toBe(200);
    const res = await call<{ ended: number }>(everywhereRoute.POST, "POST", "/", { cookie: a });
    expect(res.status).toBe(200);
    expect(res.json.ended).toBeGreaterThanOrEqual(2);
    expect((await whoAmI(a)).status).toBe(401);
    expect((await whoAmI(b)).status).toBe(401);
    ownerCookie = await sessionCookie(database.db, ownerId, demo.ownerEmail);
  });

  it("a password change ends the user's other sessions and keeps this one", async () => {
    await memberWithPassword("pw@acme.example", "member", "first-password-123");
    const a = cookieOf(await signIn("pw@acme.example", "first-password-123", "198.51.100.4"));
    const b = cookieOf(await signIn("pw@acme.example", "first-password-123", "198.51.100.4"));
    const wrong = await call(passwordRoute.POST, "POST", "/", {
      cookie: a,
      body: { currentPassword: "not-it-at-all", newPassword: "second-password-456" },
    });
    expect(wrong.status).toBe(403);
    const res = await call(passwordRoute.POST, "POST", "/", {
      cookie: a,
      body: { currentPassword: "first-password-123", newPassword: "second-password-456" },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((await whoAmI(a)).status).toBe(200);
    expect((await whoAmI(b)).status).toBe(401);
    expect((await signIn("pw@acme.example", "first-password-123", "198.51.100.4")).status).toBe(401);
    expect((await signIn("pw@acme.example", "second-password-456", "198.51.100.4")).status).toBe(200);
  });

  it("a disabled account's session is refused at once", async () => {
    const { userId } = await memberWithPassword("disabled@acme.example", "member", "disabled-pass-123");
    const cookie = cookieOf(await signIn("disabled@acme.example", "disabled-pass-123", "198.51.100.5"));
    expect((await whoAmI(cookie)).status).toBe(200);
    await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, userId));
    expect((await whoAmI(cookie)).status).toBe(401);
  });
});

describe("members", () => {
  it("adds a new person with a one-time set-password link stored only as a hash", async () => {
    const added = await addMember("new@acme.example", "viewer");
    expect(added.setPasswordPath).toMatch(/^\/set-password#token=pcp_/);
    const token = added.setPasswordPath!.split("#token=")[1]!;
    const [row] = await database.db
      .select()
      .from(passwordSetTokens)
      .where(eq(passwordSetTokens.userId, added.member.userId));
    expect(row!.tokenHash).toBe(hashToken(token));
    const first = await call(setPasswordRoute.POST, "POST", "/", {
      body: { token, password: "viewer-password-1" },
    });
    expect(first.status).toBe(200);
    const again = await call<{ error: { code: string } }>(setPasswordRoute.POST, "POST", "/", {
      body: { token, password: "viewer-password-2" },
    });
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe("password_link_invalid");
    expect((await signIn("new@acme.example", "viewer-password-1", "198.51.100.6")).status).toBe(200);
    const log = await database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(and(eq(activityLog.companyId, demo.companyId), eq(activityLog.action, "member.add")));
    expect(log.length).toBeGreaterThan(0);
  });

  it("an expired link is refused", async () => {
    const added = await addMember("late@acme.example", "member");
    const token = added.setPasswordPath!.split("#token=")[1]!;
    clockOffsetMs = 73 * 60 * 60 * 1000;
    const res = await call<{ error: { code: string } }>(setPasswordRoute.POST, "POST", "/", {
      body: { token, password: "too-late-password" },
    });
    expect(res.json.error.code).toBe("password_link_invalid");
  });

  it("the last owner can be neither demoted nor removed", async () => {
    const demote = await call<{ error: { code: string } }>(memberRoute.PATCH, "PATCH", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId, userId: ownerId },
      body: { role: "admin" },
    });
    expect(demote.status).toBe(409);
    expect(demote.json.error.code).toBe("last_owner");
    const remove = await call<{ error: { code: string } }>(memberRoute.DELETE, "DELETE", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId, userId: ownerId },
    });
    expect(remove.json.error.code).toBe("last_owner");
  });

  it("removal from the last company ends the person's sessions", async () => {
    const { userId } = await memberWithPassword("leaver@acme.example", "member", "leaver-password-1");
    const cookie = cookieOf(await signIn("leaver@acme.example", "leaver-password-1", "198.51.100.7"));
    expect((await whoAmI(cookie)).status).toBe(200);
    const res = await call(memberRoute.DELETE, "DELETE", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId, userId },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((await whoAmI(cookie)).status).toBe(401);
  });

  it("a non-owner cannot manage members", async () => {
    await memberWithPassword("admin2@acme.example", "admin", "admin2-password-1");
    const cookie = cookieOf(await signIn("admin2@acme.example", "admin2-password-1", "198.51.100.8"));
    const res = await call(membersRoute.POST, "POST", "/", {
      cookie,
      params: { companyId: demo.companyId },
      body: { email: "sneaky@acme.example", role: "owner" },
    });
    expect(res.status).toBe(403);
  });
});

describe("board keys are bounded by their creator", () => {
  it("a demoted admin's key loses admin capabilities; a removed member's key is refused (key_revoked)", async () => {
    const { userId } = await memberWithPassword("keymaker@acme.example", "admin", "keymaker-password");
    const cookie = cookieOf(await signIn("keymaker@acme.example", "keymaker-password", "198.51.100.9"));
    const minted = await call<{ key: string; id: string }>(boardKeysRoute.POST, "POST", "/", {
      cookie,
      params: { companyId: demo.companyId },
      body: { name: "keymaker's", role: "admin" },
    });
    expect(minted.status, JSON.stringify(minted.json)).toBe(201);
    const list = () =>
      call(boardKeysRoute.GET, "GET", "/", { token: minted.json.key, params: { companyId: demo.companyId } });
    expect((await list()).status).toBe(200);

    const demoted = await call(memberRoute.PATCH, "PATCH", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId, userId },
      body: { role: "member" },
    });
    expect(demoted.status).toBe(200);
    const listed = await call<{ members: { userId: string; role: string }[] }>(membersRoute.GET, "GET", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId },
    });
    expect(listed.json.members.find((m) => m.userId === userId)?.role).toBe("member");
    expect((await list()).status).toBe(403);
    // Reading still works, with the member's role.
    expect((await whoAmI(cookie)).status).toBe(200);

    await call(memberRoute.DELETE, "DELETE", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId, userId },
    });
    const refused = await call<{ error: { code: string } }>(companiesRoute.GET, "GET", "/", {
      token: minted.json.key,
    });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("key_revoked");
    // The company's admins see that someone still uses the withdrawn key.
    const logged = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(
        and(
          eq(activityLog.companyId, demo.companyId),
          eq(activityLog.action, "access.denied"),
          eq(activityLog.entityType, "board_key"),
        ),
      );
    expect(logged.map((r) => r.details)).toContainEqual({ code: "key_revoked", reason: "creator_inactive" });

    const keys = await call<{ keys: { id: string; status: string; effectiveRole: string | null }[] }>(
      boardKeysRoute.GET,
      "GET",
      "/",
      { cookie: ownerCookie, params: { companyId: demo.companyId } },
    );
    expect(keys.json.keys.find((k) => k.id === minted.json.id)).toMatchObject({
      status: "creator_inactive",
      effectiveRole: null,
    });
  });

  it("a disabled creator disables the key at once", async () => {
    const { userId } = await memberWithPassword("disabler@acme.example", "admin", "disabler-password");
    const cookie = cookieOf(await signIn("disabler@acme.example", "disabler-password", "198.51.100.10"));
    const minted = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      cookie,
      params: { companyId: demo.companyId },
      body: { name: "disabler's", role: "viewer" },
    });
    expect((await call(companiesRoute.GET, "GET", "/", { token: minted.json.key })).status).toBe(200);
    await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, userId));
    const res = await call<{ error: { code: string } }>(companiesRoute.GET, "GET", "/", {
      token: minted.json.key,
    });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("key_revoked");
  });
});

describe("formal approvals: the owner exemption", () => {
  const propose = (userId: string, email: string, title: string) =>
    database.db.transaction((tx) =>
      proposeFormalApproval(
        tx,
        { db: database.db, actor: { type: "user", userId, email }, requestId: "test", now: () => new Date() },
        demo.companyId,
        { kind: "policy_enable", title, summary: "test", payload: {} },
      ),
    );
  const accept = (approvalId: string, cookie: string) =>
    call<{ status?: string; ownerSelfApproved?: boolean; error?: { code: string } }>(
      acceptRoute.POST,
      "POST",
      "/",
      {
        cookie,
        params: { companyId: demo.companyId, approvalId },
        body: {},
      },
    );

  it("an owner cannot accept their own proposal unless the company's policy says so, and then it shows", async () => {
    const first = await propose(ownerId, demo.ownerEmail, "Owner's change");
    const refused = await accept(first.id, ownerCookie);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("approval_same_person");

    const policy = await call(companyRoute.PATCH, "PATCH", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId },
      body: { ownerMaySelfApprove: true },
    });
    expect(policy.status, JSON.stringify(policy.json)).toBe(200);
    const accepted = await accept(first.id, ownerCookie);
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: "approved", ownerSelfApproved: true });

    // The exemption is for owners only: an admin still needs another person.
    const { userId } = await memberWithPassword("selfadmin@acme.example", "admin", "selfadmin-password");
    const adminCookie = cookieOf(
      await signIn("selfadmin@acme.example", "selfadmin-password", "198.51.100.20"),
    );
    const second = await propose(userId, "selfadmin@acme.example", "Admin's change");
    expect((await accept(second.id, adminCookie)).json.error?.code).toBe("approval_same_person");
    const byOwner = await accept(second.id, ownerCookie);
    expect(byOwner.json).toMatchObject({ status: "approved", ownerSelfApproved: false });
    await call(companyRoute.PATCH, "PATCH", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId },
      body: { ownerMaySelfApprove: false },
    });
  });
});

describe("sign-in throttling", () => {
  const CANARY = "canary-password-7f3a9c";

  it("6 wrong passwords → 429 with Retry-After; the right one is refused during the lockout and accepted after", async () => {
    await memberWithPassword("locked@acme.example", "member", "locked-right-password");
    for (let i = 0; i < 5; i++) {
      const res = await signIn("locked@acme.example", `${CANARY}-${i}`, `192.0.2.${i + 1}`);
      expect(res.status).toBe(401);
      expect(res.json.error?.code).toBe("invalid_credentials");
    }
    const sixth = await signIn("locked@acme.example", `${CANARY}-6`, "192.0.2.50");
    expect(sixth.status).toBe(429);
    expect(sixth.json.error?.code).toBe("sign_in_throttled");
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(sixth.json.error?.message).toMatch(/try again in 15 minutes/);

    const during = await signIn("locked@acme.example", "locked-right-password", "192.0.2.51");
    expect(during.status).toBe(429);

    clockOffsetMs = 16 * 60 * 1000;
    const after = await signIn("locked@acme.example", "locked-right-password", "192.0.2.52");
    expect(after.status, JSON.stringify(after.json)).toBe(200);

    // A success resets the account counter: five more failures are answered 401 again.
    for (let i = 0; i < 5; i++)
      expect((await signIn("locked@acme.example", `${CANARY}-x${i}`, "192.0.2.53")).status).toBe(401);
    // …and the next lockout follows (the backoff started over after the success).
    const again = await signIn("locked@acme.example", `${CANARY}-y`, "192.0.2.53");
    expect(again.status).toBe(429);
  });

  it("consecutive lockouts double (exponential backoff)", async () => {
    await memberWithPassword("backoff@acme.example", "member", "backoff-right-password");
    for (let i = 0; i < 5; i++) await signIn("backoff@acme.example", "wrong-password-a", "192.0.2.60");
    clockOffsetMs = 16 * 60 * 1000;
    for (let i = 0; i < 5; i++) await signIn("backoff@acme.example", "wrong-password-b", "192.0.2.61");
    const res = await signIn("backoff@acme.example", "wrong-password-c", "192.0.2.62");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(29 * 60);
  });

  it("attempts are audited without the password, the raw address or an unknown email", async () => {
    await signIn("nobody-here@acme.example", CANARY, "192.0.2.99");
    const failed = await database.db
      .select({ details: activityLog.details, entityId: activityLog.entityId })
      .from(activityLog)
      .where(eq(activityLog.action, "auth.sign_in_failed"));
    expect(failed.length).toBeGreaterThan(5);
    const dump = JSON.stringify([
      await database.db.select().from(activityLog),
      await database.db.select().from(signInThrottles),
      await database.db.select().from(userSessions),
    ]);
    expect(dump).not.toContain(CANARY);
    expect(dump).not.toContain("192.0.2.");
    expect(dump).not.toContain("nobody-here");
    const throttles = await database.db.select({ key: signInThrottles.key }).from(signInThrottles);
    for (const t of throttles) expect(t.key).toMatch(/^(account|source):[0-9a-f]{64}$/);
  });

  it("idle counters are pruned; live locks are kept", async () => {
    const old = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    await database.db.insert(signInThrottles).values([
      { key: "account:stale", windowStartedAt: old, updatedAt: old },
      {
        key: "account:still-locked",
        windowStartedAt: old,
        updatedAt: old,
        lockedUntil: new Date(Date.now() + 60_000),
      },
    ]);
    expect(await pruneThrottles(database.db, new Date())).toBeGreaterThanOrEqual(1);
    const keys = (await database.db.select({ key: signInThrottles.key }).from(signInThrottles)).map(
      (r) => r.key,
    );
    expect(keys).not.toContain("account:stale");
    expect(keys).toContain("account:still-locked");
    await database.db.delete(signInThrottles).where(eq(signInThrottles.key, "account:still-locked"));
  });

  it("50 failures from one source → 429 for any account from that source", async () => {
    const source = "192.0.2.200";
    for (let i = 0; i < 50; i++) {
      const res = await signIn(`spray-${i}@acme.example`, "wrong-password-s", source);
      expect(res.status).toBe(401);
    }
    const blocked = await signIn(demo.ownerEmail, demo.ownerPassword, source);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBeTruthy();
    expect((await signIn(demo.ownerEmail, demo.ownerPassword, "192.0.2.201")).status).toBe(200);
  }, 60_000);

  it("holds across two server processes sharing the database", async () => {
    await memberWithPassword("replicas@acme.example", "member", "replicas-right-password");
    const worker = path.join(process.cwd(), "scripts", "sign-in-worker.ts");
    const children: ChildProcess[] = [];
    const start = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", worker], {
          env: { ...process.env, WORKER_DATABASE_URL: database.url },
          stdio: ["pipe", "pipe", "inherit"],
        });
        children.push(child);
        child.on("exit", (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
        createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line).origin));
      });
    try {
      const origins = await Promise.all([start(), start()]);
      const attempt = (i: number) =>
        fetch(`${origins[i % 2]}/api/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-paperclip-remote-address": `192.0.2.${150 + i}` },
          body: JSON.stringify({ email: "replicas@acme.example", password: `wrong-${i}` }),
        });
      // Sequential, alternating between the processes: the sixth is refused wherever it lands.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await attempt(i)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const right = await fetch(`${origins[1]}/api/auth/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "replicas@acme.example", password: "replicas-right-password" }),
      });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);

      // Concurrent guesses on a fresh account, split across both processes: exactly 5 are checked.
      await memberWithPassword("burst@acme.example", "member", "burst-right-password");
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fetch(`${origins[i % 2]}/api/auth/sign-in`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-paperclip-remote-address": `192.0.2.${170 + i}`,
            },
            body: JSON.stringify({ email: "burst@acme.example", password: `burst-wrong-${i}` }),
          }).then((r) => r.status),
        ),
      );
      expect(burst.filter((s) => s === 401)).toHaveLength(5);
      expect(burst.filter((s) => s === 429)).toHaveLength(7);
    } finally {
      for (const c of children) c.stdin?.end();
    }
  }, 60_000);
});
