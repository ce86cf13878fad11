/**
 * `npm run cli -- doctor`: the runtime-slot part. Whether local stdio servers run on this host
 * and why, how slots are isolated (a uid of their own, or whether slots share one), bubblewrap, PAPERCLIP_HOME's permissions and
 * the catalogue — in plain words. Reads only; changes nothing.
 */
import { statSync } from "node:fs";
import { count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { instanceStdioCommands } from "@/db/schema";
import { bwrapPath, type IsolationPlan, isolationPlan, probeBwrap, stdioHostState } from "./host";
import { paperclipHomeDir, runtimeDir } from "./sandbox";

export interface RuntimeDoctorReport {
  stdioEnabled: boolean;
  isolation: "uid" | "bwrap" | "uid+bwrap" | "none" | "unavailable";
  problems: string[];
}

export async function runtimeDoctor(
  db: Db,
  log: (line: string) => void,
  /** This host's isolation plan (tests hand in another host's, e.g. a server that is not root). */
  plan: IsolationPlan = isolationPlan(),
): Promise<RuntimeDoctorReport> {
  const problems: string[] = [];
  const host = stdioHostState();
  log(`${host.enabled ? "✔" : "•"} local stdio servers ${host.enabled ? "on" : "off"}: ${host.reason}`);

  let isolation: RuntimeDoctorReport["isolation"] = "unavailable";
  if (!plan.ok) {
    problems.push(plan.message);
    log(`✖ slot isolation     unavailable: ${plan.message} — no slot will start`);
  } else {
    isolation =
      plan.mode === "uid" && plan.sandbox === "bwrap"
        ? "uid+bwrap"
        : plan.mode === "uid"
          ? "uid"
          : plan.sandbox === "bwrap"
            ? "bwrap"
            : "none";
    if (plan.uidRange) {
      log(
        `✔ slot isolation     the server runs as root: each slot runs as a uid and gid of its own from ${plan.uidRange[0]}-${plan.uidRange[1]} (PAPERCLIP_SLOT_UID_RANGE) in its own directory; no slot can read another's environment`,
      );
    } else {
      log(
        '• slot isolation     the server does not run as root: slots run as the server\'s own user and could read PAPERCLIP_HOME; catalogue commands marked "requires isolation" are refused' +
          (plan.sandbox === "bwrap" ? " (except under bwrap, which is on)" : ""),
      );
    }
    if (!plan.separated && host.enabled) {
      // One uid for every slot: any slot, of any company, could read another's
      // /proc/<pid>/environ (its secrets). A problem whether or not the operator accepted it
      // (with stdio off no slot starts, so nothing to report).
      const message = plan.sharedUidAllowed
        ? "all slots share the server's user and PAPERCLIP_SLOT_SHARED_UID=allow lets slots with bound secrets start: one company's slot can read another's secrets from /proc/<pid>/environ; run the server as root or use PAPERCLIP_SANDBOX=bwrap"
        : "all slots would share the server's user: slots of connections with bound secrets are refused (slot_isolation_unavailable); run the server as root or use PAPERCLIP_SANDBOX=bwrap";
      problems.push(message);
      log(`✖ slot users         ${message}`);
    }
    if (plan.sandbox === "bwrap")
      log(`✔ sandbox            bwrap: private /tmp, read-only system, no network unless allowed`);
  }
  if (plan.ok && plan.sandbox !== "bwrap") {
    const probe = probeBwrap(plan.uidRange ? { uid: plan.uidRange[0], gid: plan.uidRange[0] } : null);
    log(
      probe.ok
        ? `• sandbox            none; ${probe.message}: set PAPERCLIP_SANDBOX=bwrap for a stronger sandbox`
        : `• sandbox            none (${bwrapPath() ? probe.message : "bwrap is not installed"})`,
    );
  }
  for (const name of ["PAPERCLIP_SLOT_USER", "PAPERCLIP_SLOT_GROUP"]) {
    if (process.env[name]?.trim())
      log(`• ${name} is no longer used: each slot runs as a uid and gid of its own`);
  }

  const home = paperclipHomeDir();
  try {
    const mode = statSync(home).mode & 0o777;
    if (mode & 0o077) {
      problems.push(`PAPERCLIP_HOME is open to other users (mode ${mode.toString(8)})`);
      log(
        `✖ PAPERCLIP_HOME     ${home} has mode ${mode.toString(8)}: others may enter it; chmod 700 it (the runtime does when it starts an isolated slot)`,
      );
    } else log(`✔ PAPERCLIP_HOME     ${home} is closed to other users (mode ${mode.toString(8)})`);
  } catch {
    log(`• PAPERCLIP_HOME     ${home} does not exist yet`);
  }
  log(`• runtime directory  ${runtimeDir()} (slot directories and the read-only fixture bundle)`);

  const [all] = await db.select({ n: count() }).from(instanceStdioCommands);
  const [enabled] = await db
    .select({ n: count() })
    .from(instanceStdioCommands)
    .where(eq(instanceStdioCommands.enabled, true));
  log(`• stdio catalogue    ${enabled?.n ?? 0} of ${all?.n ?? 0} command(s) enabled (Settings › Instance)`);
  return { stdioEnabled: host.enabled, isolation, problems };
}
