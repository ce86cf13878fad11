/**
 * Stored result artifacts as MCP resources: a result over the size bound is answered with its
 * bounded part plus a `resource_link` to `paperclip://artifacts/<id>` (`outcome.ts`), which the
 * agent reads with `resources/read` on the gateway. Same governance as the invocation it came
 * from: only a session of the run that made the call may read it (company and run checked in
 * the query); any other id — malformed, unknown, another run's or company's — is the same
 * "Resource not found" (-32002), and so is an expired one (audited with reason `expired`).
 * Every read and every refusal is on the audit trail.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companyRow } from "@/db/join";
import { toolInvocations, toolResultArtifacts } from "@/db/schema";
import { recordToolEvents } from "../audit/record-event";
import { ARTIFACT_URI_PREFIX, isArtifactUri } from "./artifact-link";
import { unknownResource } from "./mcp-errors";
import { type GatewayContext, recordGatewayRefusal, sessionEventFields } from "./sessions";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `resources/read` of an artifact URI for this session; -32002 for anything it may not read. */
export async function readArtifact(db: Db, gw: GatewayContext, uri: string) {
  const id = uri.slice(ARTIFACT_URI_PREFIX.length);
  const [row] = UUID.test(id)
    ? await db
        .select({
          content: toolResultArtifacts.content,
          contentType: toolResultArtifacts.contentType,
          bytes: toolResultArtifacts.bytes,
          sha256: toolResultArtifacts.sha256,
          invocationId: toolResultArtifacts.invocationId,
          toolName: toolInvocations.toolName,
          expired: sql<boolean>`${toolResultArtifacts.expiresAt} <= now()`,
        })
        .from(toolResultArtifacts)
        .innerJoin(
          toolInvocations,
          companyRow(toolInvocations, toolResultArtifacts.companyId, toolResultArtifacts.invocationId),
        )
        .where(and(companyRow(toolResultArtifacts, gw.companyId, id), eq(toolInvocations.runId, gw.runId)))
    : [];
  if (!row || row.expired) {
    // An expired artifact (not yet swept) is the same answer as an unknown one; the trail says which.
    await recordGatewayRefusal(db, gw, row ? "expired" : "not_found", "artifact");
    throw unknownResource();
  }
  await recordToolEvents(db, [
    {
      ...sessionEventFields(gw),
      eventType: "artifact_read",
      invocationId: row.invocationId,
      toolName: row.toolName,
      decision: "allow",
      reasonCode: "artifact_read",
      resultHash: row.sha256,
      resultSize: row.bytes,
    },
  ]);
  return { contents: [{ uri, mimeType: row.contentType, text: row.content }] };
}

/**
 * The `resources/read` requests of an artifact URI, recognised before the method router (the
 * session need not see any upstream resource to read its own results): the id and URI, or null.
 */
export function artifactReadRequest(body: string): { id: string | number; uri: string } | null {
  if (!body.includes(ARTIFACT_URI_PREFIX)) return null;
  let m: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { uri?: unknown } };
  try {
    m = JSON.parse(body);
  } catch {
    return null;
  }
  if (m?.jsonrpc !== "2.0" || m.method !== "resources/read") return null;
  if (!(typeof m.id === "string" || (typeof m.id === "number" && Number.isInteger(m.id)))) return null;
  return isArtifactUri(m.params?.uri) ? { id: m.id, uri: m.params.uri } : null;
}
