import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { instanceSettings, users } from "@/db/schema";
import { hashPassword } from "../auth/password";
import { systemContext } from "../context";
import { ensureFirstInstanceAdmin } from "../instance/admins";
import { createAgent, createAgentKey } from "./agents";
import { createBoardKey } from "./board-keys";
import { createCompany } from "./companies";
import { createIssue } from "./issues";
import { createProject, createRoutine } from "./projects";

export interface DemoCredentials {
  url: string;
  companyId: string;
  ownerEmail: string;
  ownerPassword: string;
  boardApiKey: string;
  agents: { id: string; name: string; apiKey: string }[];
}

/**
 * Seeds the demo company on an empty database and returns its credentials, or null when the
 * database already holds any company or user (it never touches a database with data). The
 * check and the inserts run under one advisory lock, so two starters cannot both seed.
 */
export async function seedDemoIfEmpty(db: Db, url: string): Promise<DemoCredentials | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paperclip:seed'))`);
    const [{ n }] = (await tx.execute(
      sql`select (select count(*) from companies) + (select count(*) from users) as n`,
    )) as unknown as [{ n: string }];
    if (Number(n) > 0) return null;

    const ownerEmail = "owner@acme.example";
    const ownerPassword = randomBytes(12).toString("base64url");
    const [owner] = await tx
      .insert(users)
      .values({ email: ownerEmail, name: "Ada Owner", passwordHash: await hashPassword(ownerPassword) })
      .returning({ id: users.id, email: users.email });
    // The first account of a fresh install is its operator (instance administrator).
    await ensureFirstInstanceAdmin(tx, owner!.id);
    const txDb = tx as unknown as Db;
    const ctx = {
      ...systemContext(txDb, "seed"),
      actor: { type: "user" as const, userId: owner!.id, email: owner!.email },
    };

    const company = await createCompany(ctx, {
      name: "Acme Robotics",
      slug: "acme-robotics",
      issuePrefix: "ACME",
    });
    const boardKey = await createBoardKey(ctx, company.id, { name: "Demo board key", role: "admin" });
    const triage = await createAgent(ctx, company.id, {
      name: "Triage Bot",
      title: "Support triage",
      description: "Reads inbound bug reports, labels them and drafts replies.",
      adapterType: "generic",
    });
    const release = await createAgent(ctx, company.id, {
      name: "Release Manager",
      title: "Release coordination",
      description: "Prepares release notes and coordinates firmware rollouts.",
      adapterType: "generic",
    });
    const triageKey = await createAgentKey(ctx, triage.id, { name: "demo" });
    const releaseKey = await createAgentKey(ctx, release.id, { name: "demo" });
    const project = await createProject(ctx, company.id, {
      name: "Robot Firmware",
      description: "Firmware for the R-series warehouse robots.",
    });
    await createRoutine(ctx, company.id, {
      name: "Nightly triage",
      description: "Sweep new bug reports every night.",
      projectId: project.id,
      agentId: triage.id,
      schedule: "0 2 * * *",
    });
    await createIssue(ctx, company.id, {
      title: "Triage inbound bug reports from the R2 beta",
      body: "Beta customers filed 14 reports this week. Label each, find duplicates and draft replies.",
      status: "todo",
      assigneeAgentId: triage.id,
      projectId: project.id,
    });
    await createIssue(ctx, company.id, {
      title: "Draft release notes for firmware 2.4",
      body: "Collect merged changes since 2.3 and draft customer-facing release notes.",
      status: "backlog",
      assigneeAgentId: release.id,
      projectId: project.id,
    });
    await tx
      .insert(instanceSettings)
      .values({ key: "demo_seed", value: { companyId: company.id, seededAt: new Date().toISOString() } });
    return {
      url,
      companyId: company.id,
      ownerEmail,
      ownerPassword,
      boardApiKey: boardKey.key,
      agents: [
        { id: triage.id, name: triage.name, apiKey: triageKey.key },
        { id: release.id, name: release.name, apiKey: releaseKey.key },
      ],
    };
  });
}
