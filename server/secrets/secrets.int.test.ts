import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as bindingRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/secret-bindings/[bindingId]/route";
import * as bindingsRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/secret-bindings/route";
import * as revokeRoute from "@/app/api/companies/[companyId]/tools/secrets/[secretId]/revoke/route";
import * as secretRoute from "@/app/api/companies/[companyId]/tools/secrets/[secretId]/route";
import * as versionsRoute from "@/app/api/companies/[companyId]/tools/secrets/[secretId]/versions/route";
import * as secretsRoute from "@/app/api/companies/[companyId]/tools/secrets/route";
import {
  activityLog,
  companies,
  companySecretAccessEvents,
  companySecretBindings,
  companySecrets,
  companySecretVersions,
  toolConnections,
  users,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { systemContext } from "@/server/context";
import { createBoardKey } from "@/server/core/board-keys";
import { createCompany } from "@/server/core/companies";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { DENIED_ENV_TARGETS } from "@/server/testing/binding-targets";
import { seedApplication } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { runDoctor } from "../http/doctor";
import { MASTER_KEY_ENV, resetLocalProvider } from "./local-provider";
import { migrateInlineCredentials } from "./migrate-inline";
import { connectionSecretHealth, type ResolveSecretsInput, resolveConnectionSecrets } from "./resolve";
import { rotateMasterKey } from "./rotate";

// The provider reads PAPERCLIP_HOME at call time: a fresh home per test file.
const home = mkdtempSync(path.join(tmpdir(), "pc-secrets-int-"));
process.env.PAPERCLIP_HOME = home;
delete process.env[MASTER_KEY_ENV];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let agentA: string;
let agentB: string;
let connectionId: string;
let otherCompanyId: string;
let otherConnectionId: string;
let otherBoardKey: string;

/** A value that must never appear anywhere but (encrypted) in the ciphertext column. */
const CANARY = `cnry${randomBytes(12).toString("hex")}`;
const CANARY_V2 = `cnry2${randomBytes(12).toString("hex")}`;
const CANARY_PINNED = `cnry3${randomBytes(12).toString("hex")}`;
const CANARIES = [CANARY, CANARY_V2, CANARY_PINNED];
/** Every API response body seen by the tests, searched for canaries at the end. */
const responses: unknown[] = [];

const board = () => ({ token: demo.boardApiKey });
const base = () => `/api/companies/${companyId}/tools/secrets`;

async function api<T = Record<string, unknown>>(
  handler: Parameters<typeof call>[0],
  method: string,
  opts: Parameters<typeof call>[3],
) {
  const res = await call<T>(handler, method, base(), opts);
  responses.push(res.json);
  return res;
}

/** Creates a secret as the board. */
const addSecret = <T = Record<string, unknown>>(body: unknown) =>
  api<T>(secretsRoute.POST, "POST", { ...board(), params: { companyId }, body });
/** Binds a secret to the connection as the board. */
const bindSecret = <T = Record<string, unknown>>(body: unknown) =>
  api<T>(bindingsRoute.POST, "POST", { ...board(), params: { companyId, connectionId }, body });

const resolveFor = (agentId: string | null, extra: Partial<ResolveSecretsInput> = {}) =>
  resolveConnectionSecrets(database.db, {
    companyId,
    connectionId,
    agentId,
    runId: null,
    actorType: "agent_key",
    actorId: "test-agent-key",
    ...extra,
  });

async function accessVersion(id = companyId): Promise<number> {
  const [row] = await database.db
    .select({ v: companies.accessVersion })
    .from(companies)
    .where(eq(companies.id, id));
  return row!.v;
}

async function accessEvents(secretId: string) {
  return database.db
    .select()
    .from(companySecretAccessEvents)
    .where(eq(companySecretAccessEvents.secretId, secretId))
    .orderBy(companySecretAccessEvents.createdAt);
}

beforeAll(async () => {
  resetLocalProvider();
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  agentA = demo.agents[0]!.id;
  agentB = demo.agents[1]!.id;
  connectionId = (
    await seedApplication(database.db, companyId, "github", [{ name: "list_issues", risk: "read" }])
  ).connectionId;

  // Board keys act for a person (their creator's membership bounds them): Other Co has an owner.
  const [otherOwner] = await database.db
    .insert(users)
    .values({ email: "owner@other.example" })
    .returning({ id: users.id, email: users.email });
  const sys = {
    ...systemContext(database.db, "test"),
    actor: { type: "user" as const, userId: otherOwner!.id, email: otherOwner!.email },
  };
  const other = await createCompany(sys, { name: "Other Co" });
  otherCompanyId = other.id;
  otherConnectionId = (await seedApplication(database.db, otherCompanyId, "github", [])).connectionId;
  otherBoardKey = (await createBoardKey(sys, otherCompanyId, { name: "other", role: "admin" })).key;
});

afterAll(async () => {
  await closeDemoWorld(database);
  rmSync(home, { recursive: true, force: true });
});

let secretId: string;
let bindingId: string;

describe("secrets API", () => {
  it("creates a secret and answers with metadata only; the master key appears with mode 0600", async () => {
    const res = await addSecret<{
      id: string;
      name: string;
      status: string;
      currentVersion: number;
      versions: { version: number; current: boolean; status: string; keyId: string }[];
      bindings: unknown[];
    }>({ name: "GITHUB_TOKEN", description: "GitHub bot token", value: CANARY });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: "GITHUB_TOKEN",
      status: "active",
      currentVersion: 1,
      bindings: [],
    });
    expect(res.json.versions).toEqual([
      expect.objectContaining({ version: 1, current: true, status: "active" }),
    ]);
    expect(res.json).not.toHaveProperty("value");
    secretId = res.json.id;

    const keyFile = path.join(home, "master.key");
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const [row] = await database.db
      .select()
      .from(companySecretVersions)
      .where(eq(companySecretVersions.secretId, secretId));
    expect(row!.keyId).toBe(res.json.versions[0]!.keyId);
    expect(row!.ciphertext).not.toContain(CANARY);
  });

  it("lists and reads secrets without values", async () => {
    const list = await api<{ secrets: { id: string; name: string; bindingCount: number }[] }>(
      secretsRoute.GET,
      "GET",
      {
        ...board(),
        params: { companyId },
      },
    );
    expect(list.status).toBe(200);
    expect(list.json.secrets).toEqual([
      expect.objectContaining({ id: secretId, name: "GITHUB_TOKEN", bindingCount: 0 }),
    ]);
    const one = await api(secretRoute.GET, "GET", { ...board(), params: { companyId, secretId } });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: secretId, name: "GITHUB_TOKEN" });
  });

  it("validates names and values without echoing the value", async () => {
    const cases: [unknown, number, string][] = [
      [{ name: "github_token", value: "x" }, 400, "name"],
      [{ name: "G", value: "x" }, 400, "name"],
      [{ name: "1ABC", value: "x" }, 400, "name"],
      [{ name: "EMPTY_VALUE", value: "" }, 400, "value"],
      [{ name: "TOO_BIG", value: `${CANARY}${"x".repeat(16 * 1024)}` }, 400, "value"],
      [{ name: "GITHUB_TOKEN", value: CANARY }, 409, "secret_name_taken"],
    ];
    for (const [body, status, hint] of cases) {
      const res = await addSecret<{ error: { code: string; message: string } }>(body);
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(JSON.stringify(res.json)).toContain(hint);
    }
    const exactly16k = await addSecret({ name: "BIG_BUT_OK", value: "y".repeat(16 * 1024) });
    expect(exactly16k.status).toBe(201);
  });

  it("a viewer can read but not create secrets; agent keys and other companies are refused", async () => {
    const viewer = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId },
      body: { name: "viewer", role: "viewer" },
    });
    const denied = await api<{ error: { code: string } }>(secretsRoute.POST, "POST", {
      token: viewer.json.key,
      params: { companyId },
      body: { name: "VIEWER_SECRET", value: CANARY },
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe("forbidden");
    const read = await api(secretsRoute.GET, "GET", { token: viewer.json.key, params: { companyId } });
    expect(read.status).toBe(200);
    const version = await api(versionsRoute.POST, "POST", {
      token: viewer.json.key,
      params: { companyId, secretId },
      body: { value: CANARY },
    });
    expect(version.status).toBe(403);

    const agent = await api(secretsRoute.GET, "GET", {
      token: demo.agents[0]!.apiKey,
      params: { companyId },
    });
    expect(agent.status).toBe(403);
    const outsider = await api(secretRoute.GET, "GET", {
      token: otherBoardKey,
      params: { companyId, secretId },
    });
    expect(outsider.status).toBe(404);
  });
});

describe("bindings and resolution", () => {
  it("binds a secret as an Authorization header with a prefix and bumps the access version", async () => {
    const before = await accessVersion();
    const res = await api<{ id: string; target: string; status: string; valuePrefix: string }>(
      bindingsRoute.POST,
      "POST",
      {
        ...board(),
        params: { companyId, connectionId },
        body: { secretId, placement: "http_header", target: "Authorization", valuePrefix: "Bearer " },
      },
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ target: "authorization", valuePrefix: "Bearer ", status: "ok" });
    bindingId = res.json.id;
    expect(await accessVersion()).toBe(before + 1);

    const list = await api<{ bindings: { id: string; secretName: string }[] }>(bindingsRoute.GET, "GET", {
      ...board(),
      params: { companyId, connectionId },
    });
    expect(list.json.bindings).toEqual([
      expect.objectContaining({ id: bindingId, secretName: "GITHUB_TOKEN" }),
    ]);
  });

  it("refuses bad targets, placements that do not fit the transport, duplicates and unknown ids", async () => {
    const post = (body: Record<string, unknown>, params = { companyId, connectionId }) =>
      api<{ error: { code: string; message: string } }>(bindingsRoute.POST, "POST", {
        ...board(),
        params,
        body,
      });
    for (const target of ["Host", "content-length", "Transfer-Encoding", "connection", "bad header", "x:y"]) {
      const res = await post({ secretId, placement: "http_header", target });
      expect(res.status, target).toBe(400);
    }
    expect(
      (await post({ secretId, placement: "http_header", target: "X-Ok", valuePrefix: "a\r\nb" })).status,
    ).toBe(400);
    expect((await post({ secretId, placement: "env_var", target: "lower_case" })).status).toBe(400);
    // The runtime's own env denylist, at binding time (issue 14), not when a slot starts.
    for (const target of [...DENIED_ENV_TARGETS, "LD_PRELOAD"]) {
      const res = await post({ secretId, placement: "env_var", target });
      expect(res.status, target).toBe(400);
      expect(res.json.error.code, target).toBe("env_target_forbidden");
    }
    const wrongTransport = await post({ secretId, placement: "env_var", target: "GITHUB_TOKEN" });
    expect(wrongTransport.status).toBe(400);
    expect(wrongTransport.json.error.message).toContain("mcp_http");
    const dup = await post({ secretId, placement: "http_header", target: "AUTHORIZATION" });
    expect(dup.status).toBe(409);
    expect(dup.json.error.code).toBe("binding_target_taken");
    const unknownSecret = await post({
      secretId: "00000000-0000-4000-8000-000000000000",
      placement: "http_header",
      target: "X-A",
    });
    expect(unknownSecret.status).toBe(404);
    const unknownAgent = await post({
      secretId,
      placement: "http_header",
      target: "X-B",
      allowedAgentIds: ["00000000-0000-4000-8000-000000000000"],
    });
    expect(unknownAgent.status).toBe(404);
    const unknownVersion = await post({ secretId, placement: "http_header", target: "X-C", version: 9 });
    expect(unknownVersion.status).toBe(404);
  });

  it("resolves the current value into the header and records a granted access event without the value", async () => {
    const r = await resolveFor(agentA);
    expect(r).toEqual({
      ok: true,
      headers: { authorization: `Bearer ${CANARY}` },
      env: {},
      values: [CANARY],
    });
    const events = await accessEvents(secretId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      outcome: "granted",
      version: 1,
      connectionId,
      agentId: agentA,
      actorType: "agent_key",
      purpose: "tool_call",
    });
    expect(await connectionSecretHealth(database.db, companyId, connectionId)).toBe("ok");
  });

  it("a new version becomes current; a binding pinned to a version keeps it", async () => {
    const res = await api<{ currentVersion: number; versions: { version: number; current: boolean }[] }>(
      versionsRoute.POST,
      "POST",
      { ...board(), params: { companyId, secretId }, body: { value: CANARY_V2 } },
    );
    expect(res.status).toBe(201);
    expect(res.json.currentVersion).toBe(2);
    expect(res.json.versions.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const pinned = await bindSecret({
      secretId,
      placement: "http_header",
      target: "X-Legacy-Token",
      version: 1,
    });
    expect(pinned.status).toBe(201);
    const r = await resolveFor(agentA);
    expect(r).toMatchObject({
      ok: true,
      headers: { authorization: `Bearer ${CANARY_V2}`, "x-legacy-token": CANARY },
    });
    if (r.ok) expect(r.values.sort()).toEqual([CANARY, CANARY_V2].sort());
    await call(bindingRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, connectionId, bindingId: (pinned.json as { id: string }).id },
    });
  });

  it("an agent-restricted binding reaches only the allowed agents", async () => {
    const created = await addSecret<{ id: string }>({ name: "TRIAGE_ONLY_KEY", value: CANARY_PINNED });
    const restricted = await api(bindingsRoute.POST, "POST", {
      ...board(),
      params: { companyId, connectionId },
      body: {
        secretId: created.json.id,
        placement: "http_header",
        target: "X-Api-Key",
        allowedAgentIds: [agentA],
      },
    });
    expect(restricted.status).toBe(201);
    const forA = await resolveFor(agentA);
    expect(forA).toMatchObject({ ok: true, headers: { "x-api-key": CANARY_PINNED } });
    const forB = await resolveFor(agentB);
    expect(forB.ok).toBe(true);
    if (forB.ok) {
      expect(forB.headers).toEqual({ authorization: `Bearer ${CANARY_V2}` });
      expect(forB.values).not.toContain(CANARY_PINNED);
    }
    // Admin actions (health checks) act for no agent: restricted bindings are withheld.
    for (const admin of [null, "00000000-0000-0000-0000-000000000000"]) {
      const forAdmin = await resolveFor(admin as string | null, {
        actorType: "board_key",
        actorId: "admin-key",
      });
      expect(forAdmin).toMatchObject({ ok: true, headers: { authorization: `Bearer ${CANARY_V2}` } });
      if (forAdmin.ok) expect(forAdmin.headers).not.toHaveProperty("x-api-key");
    }
    const events = await accessEvents(created.json.id);
    expect(events.map((e) => [e.agentId, e.outcome, e.reasonCode])).toEqual([
      [agentA, "granted", "granted"],
      [agentB, "denied", "agent_not_allowed"],
      [null, "denied", "agent_not_allowed"],
      [null, "denied", "agent_not_allowed"],
    ]);
    const removed = await call(bindingRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, connectionId, bindingId: (restricted.json as { id: string }).id },
    });
    expect(removed.status).toBe(200);
  });

  it("cross-company: a secret of one company can never be bound to or resolved for another", async () => {
    // Company A's path with company B's connection: the connection is not found.
    const foreignConnection = await api(bindingsRoute.POST, "POST", {
      ...board(),
      params: { companyId, connectionId: otherConnectionId },
      body: { secretId, placement: "http_header", target: "X-Steal" },
    });
    expect(foreignConnection.status).toBe(404);
    // Company B binding company A's secret to its own connection: the secret is not found.
    const foreignSecret = await call(bindingsRoute.POST, "POST", "/", {
      token: otherBoardKey,
      params: { companyId: otherCompanyId, connectionId: otherConnectionId },
      body: { secretId, placement: "http_header", target: "X-Steal" },
    });
    expect(foreignSecret.status).toBe(404);
    // Company B's key on company A's path: the connection is not found.
    const foreignCaller = await call(bindingsRoute.POST, "POST", "/", {
      token: otherBoardKey,
      params: { companyId, connectionId },
      body: { secretId, placement: "http_header", target: "X-Steal" },
    });
    expect(foreignCaller.status).toBe(404);
    const rows = await database.db
      .select()
      .from(companySecretBindings)
      .where(eq(companySecretBindings.target, "x-steal"));
    expect(rows).toEqual([]);
    // Resolution is company-scoped: B's connection has nothing; A's connection under B's id neither.
    const r1 = await resolveConnectionSecrets(database.db, {
      companyId: otherCompanyId,
      connectionId: otherConnectionId,
      agentId: agentA,
      runId: null,
      actorType: "system",
      actorId: "test",
    });
    expect(r1).toEqual({ ok: true, headers: {}, env: {}, values: [] });
    const r2 = await resolveConnectionSecrets(database.db, {
      companyId: otherCompanyId,
      connectionId,
      agentId: agentA,
      runId: null,
      actorType: "system",
      actorId: "test",
    });
    expect(r2).toEqual({ ok: true, headers: {}, env: {}, values: [] });
  });

  it("a header value with a line break fails closed instead of being sent", async () => {
    const created = await addSecret<{ id: string }>({ name: "MULTILINE", value: "line1\r\nX-Injected: yes" });
    const bound = await bindSecret<{ id: string }>({
      secretId: created.json.id,
      placement: "http_header",
      target: "X-Multi",
    });
    const r = await resolveFor(agentA);
    expect(r).toMatchObject({ ok: false, code: "missing_secret", secretId: created.json.id });
    const [event] = await accessEvents(created.json.id);
    expect(event).toMatchObject({ outcome: "denied", reasonCode: "invalid_header_value" });
    // The other secret was withheld too, and says why.
    const withheld = (await accessEvents(secretId)).at(-1);
    expect(withheld).toMatchObject({ outcome: "denied", reasonCode: "other_secret_missing" });
    await call(bindingRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, connectionId, bindingId: bound.json.id },
    });
  });

  it("a ciphertext moved to another secret does not decrypt: resolution fails closed", async () => {
    const victim = await addSecret<{ id: string }>({ name: "VICTIM", value: "victim-value" });
    const bound = await bindSecret<{ id: string }>({
      secretId: victim.json.id,
      placement: "http_header",
      target: "X-Victim",
    });
    // Copy GITHUB_TOKEN v1's ciphertext, IV and tag onto VICTIM v1.
    const [source] = await database.db
      .select()
      .from(companySecretVersions)
      .where(and(eq(companySecretVersions.secretId, secretId), eq(companySecretVersions.version, 1)));
    await database.db
      .update(companySecretVersions)
      .set({ ciphertext: source!.ciphertext, iv: source!.iv, authTag: source!.authTag })
      .where(eq(companySecretVersions.secretId, victim.json.id));
    const r = await resolveFor(agentA);
    expect(r).toMatchObject({ ok: false, code: "missing_secret", secretId: victim.json.id });
    if (!r.ok) expect(r.message).toContain("could not be decrypted");
    const [event] = await accessEvents(victim.json.id);
    expect(event).toMatchObject({ outcome: "denied", reasonCode: "decrypt_failed" });
    // Clean up so later rotation sees only well-formed rows.
    await call(bindingRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, connectionId, bindingId: bound.json.id },
    });
    await database.db.delete(companySecrets).where(eq(companySecrets.id, victim.json.id));
  });
});

describe("revocation", () => {
  it("revokes the secret and its versions; resolution fails closed with a denied event", async () => {
    const before = await accessVersion();
    const res = await api<{ status: string; versions: { status: string }[] }>(revokeRoute.POST, "POST", {
      ...board(),
      params: { companyId, secretId },
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("revoked");
    expect(res.json.versions.map((v) => v.status)).toEqual(["revoked", "revoked"]);
    expect(await accessVersion()).toBe(before + 1);

    const r = await resolveFor(agentA, { invocationId: "99999999-9999-4999-8999-999999999999" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe("missing_secret");
      expect(r.secretId).toBe(secretId);
      expect(r.message).toContain("GITHUB_TOKEN");
      expect(r.message).toContain("revoked");
    }
    const last = (await accessEvents(secretId)).at(-1)!;
    expect(last).toMatchObject({
      outcome: "denied",
      reasonCode: "secret_revoked",
      version: 2,
      invocationId: "99999999-9999-4999-8999-999999999999",
    });
    expect(await connectionSecretHealth(database.db, companyId, connectionId)).toBe("missing_secret");
    const list = await api<{ bindings: { status: string }[] }>(bindingsRoute.GET, "GET", {
      ...board(),
      params: { companyId, connectionId },
    });
    expect(list.json.bindings.map((b) => b.status)).toEqual(["missing_secret"]);

    const again = await api(revokeRoute.POST, "POST", { ...board(), params: { companyId, secretId } });
    expect(again.status).toBe(200);
    const addVersion = await api<{ error: { code: string } }>(versionsRoute.POST, "POST", {
      ...board(),
      params: { companyId, secretId },
      body: { value: "new" },
    });
    expect(addVersion.status).toBe(409);
    expect(addVersion.json.error.code).toBe("secret_revoked");
  });
});

describe("CLI: doctor and migrate-inline-env", () => {
  const INLINE = `lin_api_${randomBytes(12).toString("hex")}`;
  const INLINE_ENVLESS = `ghp_${randomBytes(16).toString("hex")}`;
  let linearConnection: string;

  beforeAll(async () => {
    linearConnection = (await seedApplication(database.db, companyId, "linear", [])).connectionId;
    await database.db
      .update(toolConnections)
      .set({
        transportConfig: {
          url: "https://linear.example/mcp?token=inline-query",
          headers: {
            Authorization: `Bearer ${INLINE}`,
            "X-Extra": INLINE_ENVLESS,
            Accept: "application/json",
          },
        },
      })
      .where(eq(toolConnections.id, linearConnection));
  });

  it("doctor lists inline credentials (paths only) and missing secrets", async () => {
    const lines: string[] = [];
    const report = await runDoctor(database.db, { log: (l) => lines.push(l) });
    const inline = report.findings
      .flatMap((f) => (f.kind === "inline_credential" ? [[f.connectionId, f.path, f.reason]] : []))
      .sort();
    // (jsonb does not keep key order, so findings are compared sorted.)
    expect(inline).toEqual([
      [linearConnection, "/headers/Authorization", "sensitive_header"],
      [linearConnection, "/headers/X-Extra", "token_shaped_value"],
      [linearConnection, "/url", "url_query_credential"],
    ]);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "missing_secret", connectionId }));
    const out = lines.join("\n");
    expect(out).toContain("/headers/Authorization");
    for (const v of [INLINE, INLINE_ENVLESS, "inline-query"]) expect(out).not.toContain(v);
  });

  it("the CLI script exits 1 when doctor finds problems, and prints no values", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(process.cwd(), "scripts", "cli.ts"), "doctor"],
      {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: database.url, PAPERCLIP_HOME: home },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, out).toBe(1);
    expect(out).toContain("/headers/Authorization");
    expect(out).toContain("missing secret");
    for (const v of [INLINE, INLINE_ENVLESS, "inline-query"]) expect(out).not.toContain(v);
  });

  it("--dry-run changes nothing", async () => {
    const before = await accessVersion();
    const lines: string[] = [];
    const report = await migrateInlineCredentials(database.db, { dryRun: true, log: (l) => lines.push(l) });
    expect(report.connections[0]!.moved.map((m) => m.secretName).sort()).toEqual([
      "LINEAR_AUTHORIZATION",
      "LINEAR_X_EXTRA",
    ]);
    expect(await accessVersion()).toBe(before);
    const [conn] = await database.db
      .select()
      .from(toolConnections)
      .where(eq(toolConnections.id, linearConnection));
    expect(JSON.stringify(conn!.transportConfig)).toContain(INLINE);
    expect(lines.join("\n")).toContain("dry run");
  });

  it("moves header credentials into bound secrets in one transaction, leaving URL credentials to the operator", async () => {
    const before = await accessVersion();
    const lines: string[] = [];
    const report = await migrateInlineCredentials(database.db, { log: (l) => lines.push(l) });
    const [migration] = report.connections;
    expect([...migration!.moved].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      expect.objectContaining({
        path: "/headers/Authorization",
        secretName: "LINEAR_AUTHORIZATION",
        placement: "http_header",
        target: "authorization",
        valuePrefix: "Bearer ",
      }),
      expect.objectContaining({ path: "/headers/X-Extra", secretName: "LINEAR_X_EXTRA", valuePrefix: "" }),
    ]);
    expect(migration!.manual).toEqual([
      expect.objectContaining({ path: "/url", reason: "url_query_credential" }),
    ]);
    expect(await accessVersion()).toBe(before + 1);
    const out = lines.join("\n");
    expect(out).toContain("LINEAR_AUTHORIZATION");
    for (const v of [INLINE, INLINE_ENVLESS]) expect(out).not.toContain(v);

    const [conn] = await database.db
      .select()
      .from(toolConnections)
      .where(eq(toolConnections.id, linearConnection));
    expect(conn!.transportConfig).toEqual({
      url: "https://linear.example/mcp?token=inline-query",
      headers: { Accept: "application/json" },
    });
    const r = await resolveConnectionSecrets(database.db, {
      companyId,
      connectionId: linearConnection,
      agentId: agentA,
      runId: null,
      actorType: "system",
      actorId: "test",
    });
    expect(r).toMatchObject({
      ok: true,
      headers: { authorization: `Bearer ${INLINE}`, "x-extra": INLINE_ENVLESS },
    });
    // Only the URL is left for doctor to report on that connection.
    const after = await runDoctor(database.db);
    expect(
      after.findings.filter((f) => f.kind === "inline_credential" && f.connectionId === linearConnection),
    ).toEqual([expect.objectContaining({ path: "/url" })]);
    // A second run has nothing left to move.
    const rerun = await migrateInlineCredentials(database.db);
    expect(rerun.connections[0]!.moved).toEqual([]);
  });
});

describe("rotate-master-key", () => {
  it("re-encrypts every version under a new key and swaps the key files", async () => {
    const keyFile = path.join(home, "master.key");
    const oldKey = readFileSync(keyFile, "utf8");
    const total = (await database.db.select().from(companySecretVersions)).length;
    const lines: string[] = [];
    const report = await rotateMasterKey(database.db, { log: (l) => lines.push(l) });
    expect(report).toMatchObject({ mode: "file", reencrypted: total, alreadyCurrent: 0 });
    expect(readFileSync(keyFile, "utf8")).not.toBe(oldKey);
    expect(readFileSync(report.retiredKeyFile!, "utf8")).toBe(oldKey);
    expect(existsSync(path.join(home, "master.key.next"))).toBe(false);
    const keyIds = new Set((await database.db.select().from(companySecretVersions)).map((v) => v.keyId));
    expect([...keyIds]).toEqual([report.newKeyId]);
    // Values still resolve under the new key.
    const linear = await database.db
      .select({ id: toolConnections.id })
      .from(toolConnections)
      .where(eq(toolConnections.name, "linear (managed)"));
    const r = await resolveConnectionSecrets(database.db, {
      companyId,
      connectionId: linear[0]!.id,
      agentId: agentA,
      runId: null,
      actorType: "system",
      actorId: "test",
    });
    expect(r.ok).toBe(true);
    expect(lines.join("\n")).not.toMatch(/[A-Za-z0-9+/]{43}=/);
  });
});

describe("the canary never leaks", () => {
  it("appears in no API response, activity row, access event or secret column but the ciphertext", async () => {
    const hashes = CANARIES.flatMap((c) => [
      createHash("sha256").update(c).digest("hex"),
      createHash("sha256").update(c).digest("base64"),
      Buffer.from(c).toString("base64"),
    ]);
    const versions = (await database.db.select().from(companySecretVersions)).map(
      ({ ciphertext: _c, ...rest }) => rest,
    );
    const dump = JSON.stringify([
      responses,
      await database.db.select().from(activityLog),
      await database.db.select().from(companySecrets),
      versions,
      await database.db.select().from(companySecretBindings),
      await database.db.select().from(companySecretAccessEvents),
      await database.db.select().from(toolConnections),
    ]);
    expect(responses.length).toBeGreaterThan(20);
    for (const needle of [...CANARIES, ...hashes]) expect(dump).not.toContain(needle);
    // Sanity: the dump does contain the things that should be there.
    expect(dump).toContain("GITHUB_TOKEN");
    expect(dump).toContain("company_secret.revoke");
  });
});
