import { REPLICA_HINT } from "@/components/labels";
import { Badge } from "@/components/ui/Badge";
import { Card, CardBody, CardHeader } from "@/components/ui/Card";
import { EmptyState } from "@/components/ui/EmptyState";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/Table";

export interface RemoteSessionView {
  id: string;
  connectionName: string;
  purpose: string;
  replica: string;
  origin: string;
  transport: string;
  state: string;
  errors: number;
  lastError: string | null;
  reconnects: number;
  closeReason: string | null;
  openedAt: string;
  lastUsedAt: string | null;
  closedAt: string | null;
}

/** The Runtime page's remote MCP sessions: the connector pool's clients, per replica. */
export function RemoteSessionsCard({ sessions }: { sessions: RemoteSessionView[] }) {
  return (
    <Card>
      <CardHeader
        title="Remote sessions"
        description="Remote (HTTP) MCP servers are reached through pooled, long-lived sessions: one per connection and credential on each server process (and one for catalog discovery), reconnected when the upstream forgets them, closed when idle."
      />
      {sessions.length === 0 ? (
        <CardBody>
          <EmptyState
            data-testid="section-empty-remote-sessions"
            title="No remote sessions"
            description="A session opens when an agent first calls a tool of a remote connection, or when its catalog is refreshed."
          />
        </CardBody>
      ) : (
        <Table stacked>
          <THead>
            <TR>
              <TH>State</TH>
              <TH>Connection</TH>
              <TH>Server process</TH>
              <TH>Opened</TH>
              <TH>Last used</TH>
              <TH>Errors</TH>
              <TH>Reconnects</TH>
            </TR>
          </THead>
          <TBody>
            {sessions.map((s) => (
              <TR key={s.id} data-testid="remote-session-row" data-state={s.state}>
                <TD data-label="State">
                  <Badge tone={s.state === "ready" ? "success" : "neutral"}>{s.state}</Badge>
                  {s.closeReason ? <div className="text-xs text-zinc-500">{s.closeReason}</div> : null}
                </TD>
                <TD data-label="Connection">
                  {s.connectionName}
                  <div className="font-mono text-xs text-zinc-500">
                    {s.origin} · {s.transport} · {s.purpose}
                  </div>
                </TD>
                <TD data-label="Server process" className="text-xs">
                  <span title={REPLICA_HINT} className="cursor-help font-mono underline decoration-dotted">
                    {s.replica}
                  </span>
                </TD>
                <TD data-label="Opened">
                  <RelativeTime value={s.openedAt} />
                </TD>
                <TD data-label="Last used">{s.lastUsedAt ? <RelativeTime value={s.lastUsedAt} /> : "—"}</TD>
                <TD
                  data-label="Errors"
                  className="max-w-xs truncate text-xs text-zinc-600"
                  title={s.lastError ?? undefined}
                >
                  {s.errors}
                  {s.lastError ? ` · ${s.lastError}` : ""}
                </TD>
                <TD data-label="Reconnects">{s.reconnects}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}
