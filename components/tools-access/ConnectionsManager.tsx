"use client";

import Link from "next/link";
import type { DateInput } from "../format";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { RelativeTime } from "../ui/RelativeTime";
import { useSelectionParam } from "../url-state";
import { toolsAccessKeys, toolsApiPath, withQuery } from "./api";
import { ConnectionStatusBadge, HealthBadge } from "./badges";
import { ConnectionCreateForm } from "./ConnectionCreateForm";
import { ConnectionDetail } from "./ConnectionDetail";
import { APPLICATION_TYPE_LABELS, CONNECTION_LIFECYCLE, connectionsHref, plural } from "./gateway";
import { useSeededQuery } from "./hooks";
import { ListFrame } from "./ListFrame";
import { ReadOnlyNote } from "./ReadOnlyNote";
import type { ApplicationChoice, Connection, ConnectionsResponse, UpstreamOAuthReturn } from "./types";
import { AUTH_KIND_BADGES } from "./upstream-auth";
import { linkClass } from "./view-helpers";

export type { ApplicationChoice, Connection } from "./types";

export interface ConnectionsManagerProps {
  companyId: string;
  /** Without it the list and detail are read-only. */
  canEdit: boolean;
  /**
   * Server-rendered `GET /connections` (with `?applicationId=` when `applicationId` is set); seeds
   * the `toolsAccessKeys.connections(companyId, applicationId)` query.
   */
  initialConnections: Connection[];
  /** Active applications to create connections for. */
  applications: ApplicationChoice[];
  /** Connection to open first (e.g. from `?connection=`). */
  selectedId?: string | null;
  /** Lists only this application's connections (e.g. from `?applicationId=`). */
  applicationId?: string | null;
  /** Link to the page where secrets are created. */
  secretsHref?: string;
  /** Instance settings, when the viewer is an instance admin (to allow a private upstream). */
  instanceSettingsHref?: string | null;
  /** The upstream OAuth callback's outcome (`?upstream_oauth=` / `?upstream_oauth_error=`), for the selected connection. */
  oauthReturn?: UpstreamOAuthReturn;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

/** Connections of the company (or of one application): list, create, and the selected one's detail. */
export function ConnectionsManager({
  companyId,
  canEdit,
  initialConnections,
  applications,
  selectedId: initialSelectedId = null,
  applicationId = null,
  secretsHref,
  instanceSettingsHref,
  oauthReturn = null,
  now,
  className,
}: ConnectionsManagerProps) {
  const query = useSeededQuery(
    toolsAccessKeys.connections(companyId, applicationId),
    withQuery(toolsApiPath(companyId, "/connections"), { applicationId }),
    (r: ConnectionsResponse) => r.connections,
    initialConnections,
  );
  const connections = query.data;
  // The selection lives in `?connection=` (components/url-state.ts): shareable, kept on reload.
  const [selectedId, setSelectedId] = useSelectionParam("connection", initialSelectedId);
  const selected = connections.find((c) => c.id === selectedId) ?? null;
  const filterApp = applicationId
    ? (applications.find((a) => a.id === applicationId) ??
      connections.find((c) => c.applicationId === applicationId)?.application ??
      null)
    : null;

  return (
    <ListFrame testId="connections-manager" className={className} query={query} noun="connections">
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="space-y-4">
          <Card>
            <CardHeader
              title="Connections"
              description={CONNECTION_LIFECYCLE}
              refreshing={query.isFetching ? "Refreshing connections" : undefined}
            >
              {applicationId ? (
                <p className="text-sm text-zinc-700" data-testid="connections-filter">
                  Showing {filterApp ? `“${filterApp.name}”` : "one application"} only.{" "}
                  <Link href={connectionsHref(companyId)} className={linkClass}>
                    Show all
                  </Link>
                </p>
              ) : null}
            </CardHeader>
            {connections.length === 0 ? (
              <CardBody>
                <EmptyState
                  headingAs="h3"
                  className="py-8"
                  title="No connections yet"
                  description="A connection tells the gateway how to reach an application. It starts as a Draft and exposes nothing until it is tested, its catalog reviewed, and it is enabled."
                  data-testid="connections-empty"
                />
              </CardBody>
            ) : (
              <ul className="divide-y divide-zinc-100" aria-label="Connections" data-testid="connection-list">
                {connections.map((connection) => (
                  <li key={connection.id}>
                    <ConnectionRow
                      connection={connection}
                      active={connection.id === selected?.id}
                      now={now}
                      onSelect={() => setSelectedId(connection.id)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {canEdit ? (
            <ConnectionCreateForm
              companyId={companyId}
              applications={applications}
              applicationId={applicationId}
              onCreated={(connection) => setSelectedId(connection.id)}
            />
          ) : (
            <ReadOnlyNote data-testid="connections-read-only">
              You can view connections but not change them.
            </ReadOnlyNote>
          )}
        </div>
        <div>
          {selected ? (
            <ConnectionDetail
              key={selected.id}
              companyId={companyId}
              connection={selected}
              canEdit={canEdit}
              secretsHref={secretsHref}
              instanceSettingsHref={instanceSettingsHref}
              // Only the connection the callback came back to shows its outcome.
              oauthReturn={selected.id === initialSelectedId ? oauthReturn : null}
              now={now}
              onClose={() => setSelectedId(null)}
            />
          ) : connections.length > 0 ? (
            <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center text-sm text-zinc-600">
              Select a connection to test it, review its catalog, bind secrets and enable it.
            </div>
          ) : null}
        </div>
      </div>
    </ListFrame>
  );
}

function ConnectionRow({
  connection,
  active,
  now,
  onSelect,
}: {
  connection: Connection;
  active: boolean;
  now?: DateInput;
  onSelect: () => void;
}) {
  const catalog = connection.catalog ?? {};
  const total = Object.values(catalog).reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const quarantined = catalog.quarantined ?? 0;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={active ? "true" : undefined}
      data-testid="connection-row"
      data-connection-id={connection.id}
      data-status={connection.status}
      data-health={connection.healthStatus}
      className={cn(
        "block w-full space-y-1 px-5 py-3 text-left transition-colors",
        focusRing,
        "focus-visible:-outline-offset-2",
        active ? "bg-accent-50" : "hover:bg-zinc-50",
      )}
    >
      <span className="flex items-center justify-between gap-2">
        <span className="line-clamp-2 min-w-0 font-medium break-words text-zinc-900" title={connection.name}>
          {connection.name}
        </span>
        <ConnectionStatusBadge status={connection.status} />
      </span>
      <span className="block text-xs text-zinc-600">
        {connection.application.name} ·{" "}
        {APPLICATION_TYPE_LABELS[connection.application.type] ?? connection.application.type}
      </span>
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500">
        <HealthBadge health={connection.healthStatus} />
        <span data-testid="connection-catalog-counts">
          {total === 0
            ? "No tools yet"
            : `${plural(catalog.active ?? 0, "active tool", "active tools")} of ${total}`}
        </span>
        {AUTH_KIND_BADGES[connection.authKind] ? (
          <Badge tone="info" data-testid="connection-auth-kind" data-kind={connection.authKind}>
            {AUTH_KIND_BADGES[connection.authKind]}
          </Badge>
        ) : null}
        {quarantined > 0 ? (
          <Badge tone="warning" dot data-testid="connection-quarantined">
            Quarantined: {quarantined}
          </Badge>
        ) : null}
        <span>
          {connection.lastUsedAt ? (
            <>
              Used <RelativeTime value={connection.lastUsedAt} now={now} />
            </>
          ) : (
            "Never used"
          )}
        </span>
      </span>
    </button>
  );
}
