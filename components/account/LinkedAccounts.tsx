"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import type {
  LinkedAccount,
  LinkedAccountsResponse,
  UpstreamAuthorizationResponse,
  UpstreamConnectStart,
  UpstreamOAuthReturn,
} from "../tools-access/types";
import { UpstreamOAuthNotice } from "../tools-access/UpstreamOAuthNotice";
import {
  authorizationPath,
  LINKED_ACCOUNTS_PATH,
  linkedAccountsKey,
  returnToOf,
} from "../tools-access/upstream-auth";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ListTable } from "../ui/ListTable";
import { PendingButton } from "../ui/PendingButton";
import { TD, TR } from "../ui/Table";

export interface LinkedAccountsProps {
  /** Server-rendered `GET /api/me/linked-accounts`; seeds the query. */
  initialAccounts: LinkedAccount[];
  /** Company names by id (the rows carry only the id). */
  companyNames: Record<string, string>;
  /** The callback's outcome from the page's query string. */
  oauthReturn?: UpstreamOAuthReturn;
  /** Where to send the browser (stories replace it). */
  navigate?: (url: string) => void;
}

const accountKey = (a: LinkedAccount) => `${a.companyId}:${a.connectionId}`;

/**
 * The signed-in person's own grants on connections that act as each person (`oauth_user`,
 * issue 36): link (the upstream's consent, back to this page) and unlink (revoked upstream).
 */
export function LinkedAccounts({
  initialAccounts,
  companyNames,
  oauthReturn = null,
  navigate,
}: LinkedAccountsProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: linkedAccountsKey,
    queryFn: async ({ signal }) =>
      (await api<LinkedAccountsResponse>(LINKED_ACCOUNTS_PATH, { signal })).accounts,
    initialData: initialAccounts,
  });
  const [unlinking, setUnlinking] = useState<LinkedAccount | null>(null);
  const [notice, setNotice] = useState<UpstreamOAuthReturn>(oauthReturn);
  const sectionRef = useRef<HTMLDivElement>(null);
  // The callback's redirect keeps only the path and query (no `#linked-accounts`): bring the
  // section and its notice into view when coming back.
  useEffect(() => {
    if (oauthReturn) sectionRef.current?.scrollIntoView({ block: "start" });
  }, [oauthReturn]);

  const link = useMutation({
    mutationFn: (a: LinkedAccount) =>
      api<UpstreamConnectStart>(`${authorizationPath(a.companyId, a.connectionId)}/connect`, {
        method: "POST",
        body: {
          returnTo: returnToOf({ pathname: window.location.pathname, search: window.location.search }),
        },
      }),
    onSuccess: (start) => {
      if (start.authorizationUrl)
        (navigate ?? ((url) => window.location.assign(url)))(start.authorizationUrl);
    },
  });
  const unlink = useMutation({
    mutationFn: (a: LinkedAccount) =>
      api<UpstreamAuthorizationResponse>(`${authorizationPath(a.companyId, a.connectionId)}/grant`, {
        method: "DELETE",
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: linkedAccountsKey }),
  });
  const accounts = query.data;

  return (
    <Card ref={sectionRef} id="linked-accounts" data-testid="linked-accounts" className="scroll-mt-6">
      <CardHeader
        title="Linked accounts"
        description="Connections that act as each person: a run you start uses your own account there. Link it once; unlink to revoke it."
        refreshing={query.isFetching ? "Refreshing linked accounts" : undefined}
      />
      <CardBody className="space-y-4">
        <UpstreamOAuthNotice
          notice={notice}
          connected={{ title: "Account linked", body: "Runs you start can now use this connection as you." }}
          errorTitle="The account was not linked"
          testIdPrefix="linked-accounts"
        />
        <ApiErrorAlert
          error={query.error}
          title="Could not refresh the linked accounts"
          retry={() => void query.refetch()}
        />
        <ApiErrorAlert error={link.error} title="Could not start linking" />
        <ListTable
          items={accounts}
          columns={[
            "Company",
            "Application",
            "Connection",
            "Status",
            { label: <span className="sr-only">Actions</span> },
          ]}
          testId="linked-accounts-table"
          stacked
          empty={{
            headingAs: "h3",
            title: "No connections ask for your account",
            description:
              "When a company admin sets a connection to act as each person, it appears here for you to link.",
            "data-testid": "linked-accounts-empty",
          }}
        >
          {(a) => {
            const grant = a.grant;
            const key = accountKey(a);
            const pending = link.isPending && link.variables && accountKey(link.variables) === key;
            return (
              <TR key={key} data-testid="linked-account" data-connection-id={a.connectionId}>
                <TD data-label="Company">{companyNames[a.companyId] ?? a.companyId}</TD>
                <TD data-label="Application">{a.applicationName}</TD>
                <TD data-label="Connection">{a.connectionName}</TD>
                <TD data-label="Status">
                  {!grant ? (
                    <Badge tone="neutral" data-testid="linked-account-status" data-status="not_linked">
                      Not linked
                    </Badge>
                  ) : grant.status === "needs_reauthorization" ? (
                    <span className="space-y-1">
                      <Badge tone="danger" dot data-testid="linked-account-status" data-status={grant.status}>
                        Needs linking again
                      </Badge>
                      {grant.lastError ? (
                        <span className="block text-xs text-zinc-600">{grant.lastError}</span>
                      ) : null}
                    </span>
                  ) : (
                    <span className="space-y-1">
                      <Badge
                        tone="success"
                        dot
                        data-testid="linked-account-status"
                        data-status={grant.status}
                      >
                        Linked
                      </Badge>
                      {grant.connectedAs ? (
                        <span className="block text-xs text-zinc-600">as {grant.connectedAs}</span>
                      ) : null}
                    </span>
                  )}
                </TD>
                <TD className="whitespace-nowrap text-right">
                  <span className="inline-flex gap-2">
                    <PendingButton
                      size="sm"
                      variant={grant?.status === "connected" ? "secondary" : "primary"}
                      pending={Boolean(pending)}
                      pendingLabel="Redirecting…"
                      disabled={link.isPending}
                      onClick={() => {
                        setNotice(null);
                        link.mutate(a);
                      }}
                      data-testid="linked-account-link"
                      aria-label={`${grant ? "Link again" : "Link account"}: ${a.connectionName}`}
                    >
                      {grant ? "Link again" : "Link account"}
                    </PendingButton>
                    {grant ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-red-700 hover:bg-red-50 hover:text-red-800"
                        onClick={() => {
                          unlink.reset();
                          setUnlinking(a);
                        }}
                        data-testid="linked-account-unlink"
                        aria-label={`Unlink: ${a.connectionName}`}
                      >
                        Unlink
                      </Button>
                    ) : null}
                  </span>
                </TD>
              </TR>
            );
          }}
        </ListTable>
        <ConfirmDialog
          open={unlinking !== null}
          onClose={() => setUnlinking(null)}
          title={`Unlink your account from ${unlinking?.connectionName ?? "this connection"}?`}
          body="Your tokens are revoked at the server and deleted; runs you start can no longer use this connection until you link it again."
          confirmLabel="Unlink"
          pendingLabel="Unlinking…"
          tone="danger"
          errorTitle="Could not unlink"
          onConfirm={() => (unlinking ? unlink.mutateAsync(unlinking) : undefined)}
          data-testid="linked-account-unlink-dialog"
        />
      </CardBody>
    </Card>
  );
}
