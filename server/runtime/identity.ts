/**
 * A runtime slot's identity (pure): which requests share one process. A slot is identified by
 * (company, connection, template, workspace scope, credential scope, trust scope[, run]) of
 * one supervisor, plus a digest of what it runs, hashed into `slot_key`.
 */
import { createHash, createHmac } from "node:crypto";
import path from "node:path";
import type { toolConnections, toolStdioTemplates } from "@/db/schema";
import { ServiceError } from "../errors";
import type { LaunchSpec } from "./catalog";

type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;

/** What a stdio call needs: the connection, its template and this use's projected secrets. */
export interface StdioTarget {
  companyId: string;
  connection: Pick<ConnectionRow, "id" | "companyId" | "stdioTemplateId">;
  template: Pick<
    TemplateRow,
    | "id"
    | "companyId"
    | "command"
    | "args"
    | "allowedEnvKeys"
    | "cwdPolicy"
    | "trustScope"
    | "perRunSlot"
    | "status"
    | "catalogCommandId"
    | "slotValues"
  >;
  /** Environment variables projected from the connection's `env_var` secret bindings. */
  env: Record<string, string>;
  /** Every secret plaintext released for this use: scrubbed from stderr and errors. */
  secretValues: string[];
  /** The run the call is for; part of the identity when the template asks for per-run slots. */
  runId?: string | null;
  /** Which workspace the process works in (templates with a workspace cwd policy). */
  workspaceScope?: string | null;
  /** That workspace's directory, resolved by the server (never by an agent). */
  workspaceDir?: string | null;
}

export interface SlotIdentity {
  companyId: string;
  connectionId: string;
  templateId: string;
  workspaceScope: string;
  credentialScope: string;
  trustScope: string;
  runId: string | null;
}

export interface SlotSpec {
  /** The catalogue command it runs (re-checked on every call, see catalog.ts `resolveLaunch`). */
  catalogCommandId: string;
  launch: LaunchSpec;
  secretEnv: Record<string, string>;
  cwdPolicy: string;
  workspaceDir: string | null;
}

export interface IdentityKeys {
  /** Keys the credential scope: equal secret sets share a slot, the hash reveals nothing. */
  scopeKey: Buffer;
  /** The supervisor owning the slot (`host/pid/start ticks`). */
  supervisorId: string;
  /** Whether `dir` is an existing directory (the only question asked of the file system). */
  isDirectory: (dir: string) => boolean;
}

/**
 * The identity, launch spec and key of the slot serving `target` with `launch`. Throws
 * `unsafe_command_template` for a mismatched or disabled template and `workspace_unavailable`
 * when the template runs in a workspace and none (absolute, existing) is given.
 */
export function slotIdentity(
  target: StdioTarget,
  launch: LaunchSpec,
  keys: IdentityKeys,
): { identity: SlotIdentity; spec: SlotSpec; key: string } {
  const { template, connection, companyId } = target;
  if (
    template.companyId !== companyId ||
    connection.companyId !== companyId ||
    connection.stdioTemplateId !== template.id
  ) {
    throw new ServiceError(
      "unsafe_command_template",
      "the connection's stdio command template does not match",
    );
  }
  if (template.status !== "active") {
    throw new ServiceError("unsafe_command_template", "the stdio command template is disabled");
  }
  let workspaceScope = "none";
  let workspaceDir: string | null = null;
  if (template.cwdPolicy !== "none") {
    const dir = target.workspaceDir ?? null;
    let ok = false;
    if (dir && path.isAbsolute(dir) && !dir.includes("\0")) {
      try {
        ok = keys.isDirectory(dir);
      } catch {
        ok = false;
      }
    }
    if (!ok || !dir) {
      throw new ServiceError(
        "workspace_unavailable",
        `the command template runs in the ${template.cwdPolicy === "issue_workspace" ? "issue" : "project"} workspace, and none is available for this call`,
      );
    }
    workspaceDir = path.normalize(dir);
    workspaceScope =
      target.workspaceScope?.slice(0, 200) ||
      `dir:${createHash("sha256").update(workspaceDir).digest("hex").slice(0, 16)}`;
  }
  const envEntries = Object.entries(target.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const credentialScope =
    envEntries.length === 0
      ? "none"
      : `env:${createHmac("sha256", keys.scopeKey).update(JSON.stringify(envEntries)).digest("hex").slice(0, 24)}`;
  const identity: SlotIdentity = {
    companyId,
    connectionId: connection.id,
    templateId: template.id,
    workspaceScope,
    credentialScope,
    trustScope: template.trustScope,
    runId: template.perRunSlot ? (target.runId ?? null) : null,
  };
  // What runs is part of the key: a catalogue change never reuses a process of the old one.
  const launchDigest = createHash("sha256").update(JSON.stringify(launch)).digest("hex").slice(0, 24);
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 2, ...identity, launch: launchDigest, supervisor: keys.supervisorId }))
    .digest("hex");
  return {
    identity,
    key,
    spec: {
      catalogCommandId: launch.catalogCommandId,
      launch,
      secretEnv: { ...(target.env ?? {}) },
      cwdPolicy: template.cwdPolicy,
      workspaceDir,
    },
  };
}
