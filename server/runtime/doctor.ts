/**
 * `npm run cli -- doctor`: the runtime-slot part. Whether local stdio servers run on this host
 * and why, how slots are isolated, the slot user, bubblewrap, PAPERCLIP_HOME's permissions and
 * the catalogue — in plain words. Reads only; changes nothing.
 */
import { statSync } from "node:fs";
import { count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { instanceStdioCommands } from "@/db/schema";
import { bwrapPath, isolationPlan, probeBwrap, resolveSlotUser, stdioHostState } from "./host";
import { paperclipHomeDir, runtimeDir } from "./sandbox";

export interface RuntimeDoctorReport {
  stdioEnabled: boolean;
  isolation: "uid" | "bwrap" | "uid+bwrap" | "none" | "unavailable";
  problems: string[];
}

export async function runtimeDoctor(db: Db, log: (line: string) => void): Promise<RuntimeDoctorReport> {
  const problems: string[] = [];
  const host = stdioHostState();
  log(`${host.enabled ? "✔" : "•"} local stdio servers ${host.enabled ? "on" : "off"}: ${host.reason}`);

  const plan = isolationPlan();
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
    if (plan.slotUser && plan.uidRange) {
      log(
        `✔ slot isolation     the server runs as root: each slot runs as a uid of its own from ${plan.uidRange[0]}-${plan.uidRange[1]} (group ${plan.slotUser.group}) in its own directory`,
      );
    } else if (plan.slotUser) {
      log(
        `✔ slot isolation     the server runs as root: slots run as ${plan.slotUser.user}:${plan.slotUser.group} (uid ${plan.slotUser.uid}, gid ${plan.slotUser.gid}) in their own directories`,
      );
      if (plan.sandbox !== "bwrap")
        log(
          `• slot users         all slots share ${plan.slotUser.user}: one slot could read another's environment; set PAPERCLIP_SLOT_UID_RANGE (or use bwrap) to separate them`,
        );
    } else {
      log(
        '• slot isolation     the server does not run as root: slots run as the server\'s own user and could read PAPERCLIP_HOME; catalogue commands marked "requires isolation" are refused' +
          (plan.sandbox === "bwrap" ? " (except under bwrap, which is on)" : ""),
      );
    }
    if (plan.sandbox === "bwrap")
      log(`✔ sandbox            bwrap: private /tmp, read-only system, no network unless allowed`);
  }
  if (plan.ok && plan.sandbox !== "bwrap") {
    const probe = probeBwrap(plan.slotUser);
    log(
      probe.ok
        ? `• sandbox            none; ${probe.message}: set PAPERCLIP_SANDBOX=bwrap for a stronger sandbox`
        : `• sandbox            none (${bwrapPath() ? probe.message : "bwrap is not installed"})`,
    );
  }
  if (!plan.ok && typeof resolveSlotUser() === "string")
    log(`  → set PAPERCLIP_SLOT_USER / PAPERCLIP_SLOT_GROUP to an existing unprivileged user`);

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
