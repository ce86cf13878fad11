import type { Metadata } from "next";
import { RemoteSessionsCard } from "@/components/tools-access/RemoteSessionsCard";
import { RuntimeSlotsTable } from "@/components/tools-access/RuntimeSlotsTable";
import { Badge } from "@/components/ui/Badge";
import { Card, CardBody, CardHeader } from "@/components/ui/Card";
import { CodeLabel } from "@/components/ui/CodeLabel";
import { EmptyState } from "@/components/ui/EmptyState";
import { HeaderRow, Table, TBody, TD, TR } from "@/components/ui/Table";
import { listRemoteSessions } from "@/server/connectors/remote-sessions";
import { listRuntimeSlots } from "@/server/runtime/slots";
import { listStdioTemplates } from "@/server/runtime/templates";
import { listConnections } from "@/server/tools/connections";
import { companyPage } from "../../../../../_lib/company-page";
import { iso } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Runtime · Tools & Access" };

// The runtime view: supervised local (stdio) MCP processes, the pooled remote (HTTP) MCP
// sessions, and the admin-made command templates local processes start from. Actions go
// through the same verbs as the admin API.
export default companyPage(async ({ ctx, can, companyId }) => {
  const canManage = can("tools:manage_runtime");
  const [slots, templates, remote, connections] = await Promise.all([
    listRuntimeSlots(ctx, companyId, { limit: 100 }),
    listStdioTemplates(ctx, companyId),
    listRemoteSessions(ctx, companyId, { limit: 100 }),
    listConnections(ctx, companyId),
  ]);

  // Each slot names its connection (issue 21, item 10).
  const connectionNames = new Map(connections.map((c) => [c.id, c.name]));

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
          <RuntimeSlotsTable
            companyId={companyId}
            canManage={canManage}
            slots={slots.map((s) => ({
              id: s.id,
              connectionId: s.connectionId,
              connectionName: connectionNames.get(s.connectionId) ?? null,
              kind: s.kind,
              status: s.status,
              host: s.host,
              pid: s.pid,
              processGroupId: s.processGroupId,
              startedAt: iso(s.startedAt),
              lastUsedAt: iso(s.lastUsedAt),
              stoppedAt: iso(s.stoppedAt),
              restartCount: s.restartCount,
              lastError: s.lastError,
            }))}
          />
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
          <Table stacked>
            <HeaderRow columns={["Name", "Command", "Status", "Slots"]} />
            <TBody>
              {templates.map((t) => (
                <TR key={t.id} data-testid="template-row">
                  <TD data-label="Name">{t.name}</TD>
                  <TD
                    data-label="Command"
                    className="max-w-md truncate font-mono text-xs"
                    title={[t.command, ...t.args].join(" ")}
                  >
                    {[t.command, ...t.args].join(" ")}
                  </TD>
                  <TD data-label="Status">
                    <Badge tone={t.status === "active" ? "success" : "neutral"}>
                      <CodeLabel label={t.status === "active" ? "Active" : "Disabled"} code={t.status} />
                    </Badge>
                  </TD>
                  <TD data-label="Slots">{t.perRunSlot ? "one per run" : "shared"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
});
