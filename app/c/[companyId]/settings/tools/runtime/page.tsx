import type { Metadata } from "next";
import { revalidatePath } from "next/cache";
import { RemoteSessionsCard } from "@/components/tools-access/RemoteSessionsCard";
import { Badge } from "@/components/ui/Badge";
import { Button } from "@/components/ui/Button";
import { Card, CardBody, CardHeader } from "@/components/ui/Card";
import { EmptyState } from "@/components/ui/EmptyState";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { HeaderRow, Table, TBody, TD, TR } from "@/components/ui/Table";
import { listRemoteSessions } from "@/server/connectors/remote-sessions";
import { listRuntimeSlots, restartRuntimeSlot, stopRuntimeSlot } from "@/server/runtime/slots";
import { listStdioTemplates } from "@/server/runtime/templates";
import { companyPage } from "../../../../../_lib/company-page";
import { iso, requireUserContext } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Runtime · Tools & Access" };

const TONE: Record<string, "success" | "info" | "warning" | "danger" | "neutral"> = {
  running: "success",
  idle: "info",
  starting: "info",
  stopping: "neutral",
  stopped: "neutral",
  crashed: "danger",
  suppressed: "danger",
};

// The runtime view: supervised local (stdio) MCP processes, the pooled remote (HTTP) MCP
// sessions, and the admin-made command templates local processes start from. Actions go
// through the same verbs as the admin API.
export default companyPage(async ({ ctx, can, companyId }) => {
  const canManage = can("tools:manage_runtime");
  const [slots, templates, remote] = await Promise.all([
    listRuntimeSlots(ctx, companyId, { limit: 100 }),
    listStdioTemplates(ctx, companyId),
    listRemoteSessions(ctx, companyId, { limit: 100 }),
  ]);

  async function slotAction(formData: FormData) {
    "use server";
    const actionCtx = await requireUserContext();
    const id = String(formData.get("slotId") ?? "");
    if (formData.get("action") === "restart") await restartRuntimeSlot(actionCtx, companyId, id);
    else await stopRuntimeSlot(actionCtx, companyId, id);
    revalidatePath(`/c/${companyId}/settings/tools/runtime`);
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Runtime slots"
          description="Local MCP servers run as supervised, pooled processes: started on first use, shared by calls with the same identity, stopped when idle, restarted with backoff after a crash and suppressed after a crash storm."
        />
        {slots.length === 0 ? (
          <CardBody>
            <EmptyState
              data-testid="section-empty-runtime"
              title="No runtime slots"
              description="Slots appear when an agent first calls a tool of a local (stdio) connection. Install the Runtime lab example to try one."
            />
          </CardBody>
        ) : (
          <Table>
            <HeaderRow
              columns={["Status", "Process", "Started", "Last used", "Restarts", "Last error"]}
              actions
            />
            <TBody>
              {slots.map((s) => (
                <TR key={s.id} data-testid="slot-row" data-status={s.status}>
                  <TD>
                    <Badge tone={TONE[s.status] ?? "neutral"}>{s.status}</Badge>
                  </TD>
                  <TD className="font-mono text-xs">
                    {s.pid ? `pid ${s.pid} · pgid ${s.processGroupId ?? "—"}` : "—"}
                    <div className="text-zinc-500">{s.host}</div>
                  </TD>
                  <TD>{s.startedAt ? <RelativeTime value={iso(s.startedAt)!} /> : "—"}</TD>
                  <TD>{s.lastUsedAt ? <RelativeTime value={iso(s.lastUsedAt)!} /> : "—"}</TD>
                  <TD>{s.restartCount}</TD>
                  <TD className="max-w-xs truncate text-xs text-zinc-600" title={s.lastError ?? undefined}>
                    {s.lastError ?? "—"}
                  </TD>
                  <TD>
                    {canManage &&
                    ["running", "idle", "starting", "crashed", "suppressed"].includes(s.status) ? (
                      <form action={slotAction} className="flex gap-2">
                        <input type="hidden" name="slotId" value={s.id} />
                        <Button
                          type="submit"
                          name="action"
                          value="restart"
                          size="sm"
                          variant="secondary"
                          data-testid="slot-restart"
                        >
                          Restart
                        </Button>
                        {s.status !== "suppressed" && s.status !== "crashed" ? (
                          <Button
                            type="submit"
                            name="action"
                            value="stop"
                            size="sm"
                            variant="ghost"
                            data-testid="slot-stop"
                          >
                            Stop
                          </Button>
                        ) : null}
                      </form>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <RemoteSessionsCard
        sessions={remote.map((r) => ({
          ...r,
          openedAt: iso(r.openedAt)!,
          lastUsedAt: iso(r.lastUsedAt),
          closedAt: iso(r.closedAt),
        }))}
      />
      <Card>
        <CardHeader
          title="Command templates"
          description="The only way a local process can start. Admins define the command and its arguments; agents can never supply a command, arguments, working directory, environment or secrets."
        />
        {templates.length === 0 ? (
          <CardBody>
            <p className="text-sm text-zinc-600">No command templates yet.</p>
          </CardBody>
        ) : (
          <Table>
            <HeaderRow columns={["Name", "Command", "Status", "Slots"]} />
            <TBody>
              {templates.map((t) => (
                <TR key={t.id} data-testid="template-row">
                  <TD>{t.name}</TD>
                  <TD
                    className="max-w-md truncate font-mono text-xs"
                    title={[t.command, ...t.args].join(" ")}
                  >
                    {[t.command, ...t.args].join(" ")}
                  </TD>
                  <TD>
                    <Badge tone={t.status === "active" ? "success" : "neutral"}>{t.status}</Badge>
                  </TD>
                  <TD>{t.perRunSlot ? "one per run" : "shared"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
});
