import { eq } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { agents, toolCallEvents } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ExampleSmokeResult } from "@/server/contracts/api/examples";
import { requireCompany } from "../auth/authorize";
import { EXAMPLE_CREDENTIAL_PREFIX } from "../config/examples";
import type { ServiceContext } from "../context";
import { finishRun, startRun } from "../core/runs";
import { conflict, ERRORS, notFound } from "../errors";
import { type GatewayCallOutcome, gatewayCallTool } from "../gateway/call-tool";
import { gatewayListTools } from "../gateway/list-tools";
import { authenticateGatewayToken } from "../gateway/sessions";
import { EXAMPLES, SMOKE_CHECKS, smokePlan } from "./examples";
import { exampleConnection, hostileExposureChecks } from "./hostile-checks";

export const SmokeInput = z.object({ agentId: z.uuid().optional() });
export type SmokeInput = z.infer<typeof SmokeInput>;

interface Check {
  name: string;
  passed: boolean;
  evidence: Record<string, unknown>;
}

const READ_CALL: Record<string, [string, Record<string, unknown>]> = {
  echo: ["echo", { text: "smoke check" }],
  todo: ["todo_list", {}],
  outbox: ["list_outbox", {}],
  social: ["list_posts", {}],
  "paperclip-self": ["list_issues", { limit: 1 }],
  "text-utils": ["word_count", { text: "one two three" }],
  lab: ["increment", {}],
  "fs-sandbox": ["list", { path: "." }],
};
const APPROVAL_CALL: Record<string, [string, Record<string, unknown>]> = {
  todo: ["todo_delete", { id: 1 }],
  outbox: ["send_email", { draftId: "smoke" }],
  social: ["publish_post", { text: "smoke" }],
  "fs-sandbox": ["write", { path: "smoke.txt", content: "smoke" }],
};

const summary = (o: GatewayCallOutcome) =>
  o.ok
    ? { ok: true, invocationId: o.invocationId, replayed: o.replayed, truncated: o.truncated ?? false }
    : { ok: false, code: o.code, status: o.status, invocationId: o.invocationId };

/**
 * Runs the ADR's applicable smoke checks against an installed example, through the real
 * gateway pipeline: a real run and gateway session for an agent, real calls, real audit rows.
 * The run is finished (and its session revoked) at the end.
 */
export async function runExampleSmoke(
  ctx: ServiceContext,
  companyId: string,
  exampleId: string,
  input: SmokeInput,
) {
  await requireCompany(ctx, companyId, "tools:admin");
  const spec = EXAMPLES.find((e) => e.id === exampleId);
  if (!spec) throw notFound("example");
  const [agent] = await ctx.db
    .select({ id: agents.id })
    .from(agents)
    .where(
      input.agentId
        ? companyRow(agents, companyId, input.agentId)
        : inCompany(agents, companyId, eq(agents.status, "active")),
    )
    .limit(1);
  if (!agent)
    throw input.agentId
      ? notFound("agent")
      : conflict("no_agent", "create an agent first: smoke checks run as an agent");
  const run = await startRun(ctx, agent.id, {});
  const gw = await authenticateGatewayToken(ctx.db, run.gateway.token, new Date());
  const checks: Check[] = [];
  const slug = spec.slug;
  // The card lists exactly this plan (listExamples); each check below is one of its steps.
  const plan = smokePlan(spec);
  const done = () =>
    ({
      example: spec.id,
      runId: run.id,
      agentId: agent.id,
      passed: checks.every((c) => c.passed),
      checks,
    }) satisfies Served<typeof ExampleSmokeResult>;
  try {
    if (plan.includes("unreviewed")) {
      const connectionId = await exampleConnection(ctx, companyId, slug);
      if (!connectionId) throw conflict("example_not_installed", "install the example first");
      const { unreviewed, flagged } = await hostileExposureChecks(ctx, gw, companyId, connectionId, slug);
      checks.push({ name: SMOKE_CHECKS.unreviewed, ...unreviewed });
      checks.push({ name: SMOKE_CHECKS.flagged, ...flagged });
      return done();
    }
    const listed = await gatewayListTools(ctx.db, gw);
    checks.push({
      name: SMOKE_CHECKS.listed,
      passed: listed.some((t) => t.name.startsWith(`${slug}__`)),
      evidence: { visible: listed.filter((t) => t.name.startsWith(`${slug}__`)).map((t) => t.name) },
    });
    if (plan.includes("missing_secret")) {
      const missing = await gatewayCallTool(ctx.db, gw, {
        tool: `${slug}__echo`,
        arguments: { text: "smoke" },
      });
      const events =
        missing.ok || !missing.invocationId
          ? []
          : await ctx.db
              .select()
              .from(toolCallEvents)
              .where(
                inCompany(toolCallEvents, companyId, eq(toolCallEvents.invocationId, missing.invocationId)),
              );
      checks.push({
        name: SMOKE_CHECKS.missing_secret,
        passed:
          !missing.ok &&
          missing.code === "missing_secret" &&
          events.length > 0 &&
          !JSON.stringify(events).includes(EXAMPLE_CREDENTIAL_PREFIX),
        evidence: { call: summary(missing), auditEvents: events.map((e) => e.eventType) },
      });
      return done();
    }
    const [readTool, readArgs] = READ_CALL[spec.id]!;
    const read = await gatewayCallTool(ctx.db, gw, { tool: `${slug}__${readTool}`, arguments: readArgs });
    const audited = read.ok
      ? await ctx.db
          .select({ eventType: toolCallEvents.eventType })
          .from(toolCallEvents)
          .where(inCompany(toolCallEvents, companyId, eq(toolCallEvents.invocationId, read.invocationId)))
      : [];
    checks.push({
      name: SMOKE_CHECKS.read,
      passed: read.ok && audited.some((e) => e.eventType === "result_returned"),
      evidence: { call: summary(read), auditEvents: audited.map((e) => e.eventType) },
    });
    const hidden = await gatewayCallTool(ctx.db, gw, { tool: `${slug}__not_a_real_tool`, arguments: {} });
    checks.push({
      name: SMOKE_CHECKS.hidden,
      passed: !hidden.ok && hidden.code === "tool_denied" && hidden.status === ERRORS.tool_denied.status,
      evidence: summary(hidden),
    });
    if (plan.includes("bounded")) {
      const big = await gatewayCallTool(ctx.db, gw, {
        tool: "echo__big_output",
        arguments: { bytes: 1_200_000 },
      });
      checks.push({
        name: SMOKE_CHECKS.bounded,
        passed: big.ok && big.truncated === true && Boolean(big.artifactId),
        evidence: summary(big),
      });
    }
    if (plan.includes("idempotent")) {
      const key = `smoke-${run.id}`;
      const count = async () => {
        const r = await gatewayCallTool(ctx.db, gw, { tool: "todo__side_effect_count", arguments: {} });
        return r.ok
          ? Number(
              (r.result.structuredContent as { sideEffectCount?: number; count?: number } | undefined)
                ?.sideEffectCount ??
                (r.result.structuredContent as { count?: number } | undefined)?.count ??
                Number.NaN,
            )
          : Number.NaN;
      };
      const before = await count();
      const first = await gatewayCallTool(ctx.db, gw, {
        tool: "todo__todo_add",
        arguments: { title: "smoke check" },
        idempotencyKey: key,
      });
      const retry = await gatewayCallTool(ctx.db, gw, {
        tool: "todo__todo_add",
        arguments: { title: "smoke check" },
        idempotencyKey: key,
      });
      const after = await count();
      checks.push({
        name: SMOKE_CHECKS.idempotent,
        passed: first.ok && retry.ok && retry.replayed && after - before === 1,
        evidence: {
          first: summary(first),
          retry: summary(retry),
          sideEffectsBefore: before,
          sideEffectsAfter: after,
        },
      });
    }
    const approval = APPROVAL_CALL[spec.id];
    if (plan.includes("approval")) {
      if (!approval) throw new Error(`example \`${spec.id}\` has an approval check but no approval call`);
      const [tool, args] = approval;
      const gated = await gatewayCallTool(ctx.db, gw, { tool: `${slug}__${tool}`, arguments: args });
      checks.push({
        name: SMOKE_CHECKS.approval,
        // On a run without an issue thread there is nobody to ask: it fails closed instead.
        passed: !gated.ok && (gated.code === "approval_required" || gated.code === "approval_path_missing"),
        evidence: summary(gated),
      });
    }
  } finally {
    await finishRun(ctx, run.id, { status: "succeeded" });
  }
  return done();
}
