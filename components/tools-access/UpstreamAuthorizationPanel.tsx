"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { DateInput } from "../format";
import { type ActionButtonSpec, ActionButtons } from "../ui/ActionButtons";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import {
  codeInput,
  InputField,
  SelectField,
  secretInput,
  TextareaField,
  valueOptions,
} from "../ui/FieldControls";
import { KeyValueList } from "../ui/KeyValueList";
import { Skeleton } from "../ui/Skeleton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys } from "./api";
import { When } from "./ConnectionHealth";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  ConnectionAuthKind,
  SetUpstreamAuthInput,
  UpstreamAuthorization,
  UpstreamAuthorizationResponse,
  UpstreamConnectStart,
  UpstreamOAuthReturn,
  UpstreamTokenAuthMethod,
} from "./types";
import { UpstreamOAuthNotice } from "./UpstreamOAuthNotice";
import {
  AUTH_KIND_LABELS,
  authorizationPath,
  CONNECTION_AUTH_KINDS,
  parseScopes,
  REGISTRATION_LABELS,
  returnToOf,
  TOKEN_AUTH_METHOD_LABELS,
  UPSTREAM_TOKEN_AUTH_METHODS,
} from "./upstream-auth";

export interface UpstreamAuthorizationPanelProps {
  companyId: string;
  connectionId: string;
  /** Company admins (`tools:manage_connections`): the settings and the company grant's buttons. */
  canEdit: boolean;
  /** The callback's outcome read from the page's query string. */
  oauthReturn?: UpstreamOAuthReturn;
  /** Where to send the browser (stories replace it; the page uses `window.location.assign`). */
  navigate?: (url: string) => void;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
}

/** `["tools-access", companyId, "connections", "detail", id, "authorization"]`: refreshed with the connection. */
export const authorizationKey = (companyId: string, connectionId: string) =>
  [...toolsAccessKeys.connection(companyId, connectionId), "authorization"] as const;

const STATUS_TEXT = {
  not_connected: { label: "Not connected", tone: "neutral" },
  connected: { label: "Connected", tone: "success" },
  needs_reauthorization: { label: "Needs reauthorization", tone: "danger" },
} as const;

function currentReturnTo(): string | undefined {
  return typeof window === "undefined" ? undefined : returnToOf(window.location);
}

/**
 * How a remote connection authorises upstream (issue 36): the kind and its settings (admins),
 * the grant's status, and Connect / Reconnect / Disconnect (or, for `oauth_user`, the viewer's own
 * Link / Unlink). The server decides everything; the panel shows what it answered.
 */
export function UpstreamAuthorizationPanel({
  companyId,
  connectionId,
  canEdit,
  oauthReturn = null,
  navigate,
  now,
}: UpstreamAuthorizationPanelProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const base = authorizationPath(companyId, connectionId);
  const key = authorizationKey(companyId, connectionId);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api<UpstreamAuthorizationResponse>(base, { signal })).authorization,
  });
  const [confirming, setConfirming] = useState<"disconnect" | null>(null);
  const [notice, setNotice] = useState<UpstreamOAuthReturn>(oauthReturn);
  const apply = (next: UpstreamAuthorization) => {
    client.setQueryData(key, next);
    // The connection list badges the kind.
    return client.invalidateQueries({ queryKey: toolsAccessKeys.connectionsAll(companyId) });
  };

  const connect = useMutation({
    mutationFn: () =>
      api<UpstreamConnectStart>(`${base}/connect`, { method: "POST", body: { returnTo: currentReturnTo() } }),
    onSuccess: async (start) => {
      client.setQueryData(key, start.authorization);
      // Client credentials answer with the tokens already fetched: nothing to follow.
      if (start.authorizationUrl)
        (navigate ?? ((url) => window.location.assign(url)))(start.authorizationUrl);
    },
  });
  const disconnect = useMutation({
    mutationFn: () => api<UpstreamAuthorizationResponse>(`${base}/grant`, { method: "DELETE" }),
    onSuccess: (r) => apply(r.authorization),
  });

  if (query.isPending) {
    return (
      <Card data-testid="upstream-auth" data-state="loading">
        <CardHeader title="Authorization" description="Loading how this connection authorises…" />
        <CardBody className="space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </CardBody>
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card data-testid="upstream-auth" data-state="error">
        <CardHeader title="Authorization" />
        <CardBody>
          <ApiErrorAlert
            error={query.error}
            title="Could not load the authorization"
            retry={() => void query.refetch()}
          />
        </CardBody>
      </Card>
    );
  }

  const auth = query.data;
  const personal = auth.kind === "oauth_user";
  const grant = auth.grant;
  // oauth_user: any member links their own account; the other kinds are the company's (admins).
  const mayAct = personal || canEdit;
  const busy = connect.isPending || disconnect.isPending;
  const status = STATUS_TEXT[auth.status];
  const actions: ActionButtonSpec[] = [];
  if (auth.kind !== "static" && mayAct) {
    const first = auth.status === "not_connected";
    const label =
      auth.kind === "client_credentials"
        ? "Fetch token"
        : personal
          ? first
            ? "Link my account"
            : "Link again"
          : first
            ? "Connect with OAuth"
            : "Reconnect";
    actions.push({
      label,
      pending: connect.isPending,
      pendingLabel: auth.kind === "client_credentials" ? "Fetching…" : "Redirecting…",
      disabled: busy,
      variant: first || auth.status === "needs_reauthorization" ? undefined : "secondary",
      onClick: () => {
        disconnect.reset();
        setNotice(null);
        connect.mutate();
      },
      "data-testid": "upstream-auth-connect",
    });
    if (grant)
      actions.push({
        label: personal ? "Unlink my account" : "Disconnect",
        variant: "ghost",
        className: "text-red-700 hover:bg-red-50 hover:text-red-800",
        disabled: busy,
        onClick: () => {
          connect.reset();
          setConfirming("disconnect");
        },
        "data-testid": "upstream-auth-disconnect",
      });
  }

  return (
    <Card
      data-testid="upstream-auth"
      data-state="ready"
      data-kind={auth.kind}
      data-status={auth.status}
      id="authorization"
    >
      <CardHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            Authorization
            {auth.kind === "static" ? null : (
              <Badge tone={status.tone} dot data-testid="upstream-auth-status">
                {status.label}
              </Badge>
            )}
          </span>
        }
        description={
          auth.kind === "static"
            ? "The gateway reaches this server with the bound secrets (or none)."
            : personal
              ? "Each person links their own account; a run acts with the account of the person who started it."
              : auth.kind === "client_credentials"
                ? "The gateway fetches its own tokens with the client's credentials (machine to machine)."
                : "A company admin authorises once; every agent's call uses the company's grant."
        }
      />
      <CardBody className="space-y-4">
        <UpstreamOAuthNotice
          notice={notice}
          connected={{
            title: "Connected",
            body: `The authorization server granted access${grant?.connectedAs ? ` as ${grant.connectedAs}` : ""}.`,
          }}
          errorTitle="The authorization did not complete"
          testIdPrefix="upstream-auth"
        />
        {auth.status === "needs_reauthorization" ? (
          <Alert
            tone="danger"
            title={personal ? "Your account needs linking again" : "Needs reauthorization"}
            data-testid="upstream-auth-needs-reauthorization"
          >
            Calls through this connection are refused until {personal ? "you link it" : "an admin reconnects"}
            .
            {grant?.lastError ? (
              <>
                {" "}
                Last error: <code className="font-mono text-xs">{grant.lastError}</code>
              </>
            ) : null}
          </Alert>
        ) : null}

        <KeyValueList
          data-testid="upstream-auth-details"
          items={[
            {
              label: "Kind",
              value: <span data-testid="upstream-auth-kind">{AUTH_KIND_LABELS[auth.kind]}</span>,
            },
            ...(auth.kind === "static"
              ? []
              : [
                  {
                    label: personal ? "Your account" : "Connected as",
                    value: grant ? (
                      <span data-testid="upstream-auth-connected-as">
                        {grant.connectedAs ?? "(not named by the server)"}
                      </span>
                    ) : (
                      <span className="text-zinc-500">{personal ? "Not linked" : "Not connected"}</span>
                    ),
                  },
                  {
                    label: "Scopes",
                    value: (grant?.scopes.length ? grant.scopes : (auth.config.scopes ?? [])).join(" ") || (
                      <span className="text-zinc-500">The server's default</span>
                    ),
                  },
                  {
                    label: "Expires",
                    value: grant ? <When value={grant.expiresAt} now={now} never="No expiry given" /> : null,
                  },
                  {
                    label: "Last refresh",
                    value: grant ? (
                      <When value={grant.refreshedAt} now={now} never="Not refreshed yet" />
                    ) : null,
                  },
                  {
                    label: "Issuer",
                    value: auth.issuer ? <code className="font-mono text-xs">{auth.issuer}</code> : null,
                  },
                  {
                    label: "Client",
                    value: auth.registration
                      ? `${REGISTRATION_LABELS[auth.registration] ?? auth.registration}${auth.hasClientCredential ? " (secret stored)" : ""}`
                      : auth.config.clientId
                        ? "Pre-registered client"
                        : "Found at the first connect",
                  },
                  ...(personal ? [{ label: "Linked people", value: String(auth.linkedPeople) }] : []),
                ]),
          ]}
        />

        {actions.length > 0 ? (
          <div className="flex flex-wrap gap-2">
            <ActionButtons actions={actions} />
          </div>
        ) : auth.kind !== "static" && !mayAct ? (
          <ReadOnlyNote data-testid="upstream-auth-read-only">
            Only a company admin can connect or disconnect this connection.
          </ReadOnlyNote>
        ) : null}
        <ApiErrorAlert error={connect.error} title="Could not start the authorization" />
        <ApiErrorAlert error={disconnect.error} title="Could not disconnect" />
        <ConfirmDialog
          open={confirming === "disconnect"}
          onClose={() => setConfirming(null)}
          title={personal ? "Unlink your account?" : "Disconnect this connection?"}
          body={
            personal
              ? "Your tokens are revoked at the server and deleted; runs you start can no longer use this connection until you link it again."
              : "The company's tokens are revoked at the server and deleted; every agent's call through this connection is refused until an admin connects again."
          }
          confirmLabel={personal ? "Unlink" : "Disconnect"}
          pendingLabel={personal ? "Unlinking…" : "Disconnecting…"}
          tone="danger"
          errorTitle="Could not disconnect"
          onConfirm={() => disconnect.mutateAsync()}
          data-testid="upstream-auth-disconnect-dialog"
        />

        {canEdit ? (
          <AuthorizationSettings
            key={`${auth.kind}:${auth.config.clientId ?? ""}:${(auth.config.scopes ?? []).join(" ")}`}
            base={base}
            auth={auth}
            onSaved={(next) => {
              setNotice(null);
              connect.reset();
              disconnect.reset();
              return apply(next);
            }}
          />
        ) : null}
      </CardBody>
    </Card>
  );
}

interface SettingsProps {
  base: string;
  auth: UpstreamAuthorization;
  onSaved: (next: UpstreamAuthorization) => unknown;
}

/** The kind and its settings; saving drops every grant, so it asks first. */
function AuthorizationSettings({ base, auth, onSaved }: SettingsProps) {
  const api = useToolsApi();
  const id = useId();
  const [kind, setKind] = useState<ConnectionAuthKind>(auth.kind);
  const [scopes, setScopes] = useState((auth.config.scopes ?? []).join(" "));
  const [clientId, setClientId] = useState(auth.config.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [method, setMethod] = useState<UpstreamTokenAuthMethod | "">(
    auth.config.tokenEndpointAuthMethod ?? "",
  );
  const [jwk, setJwk] = useState("");
  const [jwkError, setJwkError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<SetUpstreamAuthInput | null>(null);
  const save = useMutation({
    mutationFn: (body: SetUpstreamAuthInput) =>
      api<UpstreamAuthorizationResponse>(base, { method: "PUT", body }),
    onSuccess: (r) => onSaved(r.authorization),
  });
  const oauth = kind !== "static";
  // Open while there is nothing to show but the settings; collapsed once a grant exists.
  const [open, setOpen] = useState(auth.status === "not_connected");

  function submit(e: FormEvent) {
    e.preventDefault();
    setJwkError(null);
    let privateKeyJwk: Record<string, unknown> | undefined;
    if (oauth && method === "private_key_jwt" && jwk.trim()) {
      try {
        privateKeyJwk = JSON.parse(jwk) as Record<string, unknown>;
      } catch {
        setJwkError("Paste the private key as a JSON Web Key (JSON).");
        return;
      }
    }
    const list = parseScopes(scopes);
    const body: SetUpstreamAuthInput = oauth
      ? {
          kind,
          ...(list.length ? { scopes: list } : {}),
          ...(clientId.trim() ? { clientId: clientId.trim() } : {}),
          ...(clientSecret ? { clientSecret } : {}),
          ...(method ? { tokenEndpointAuthMethod: method } : {}),
          ...(privateKeyJwk ? { privateKeyJwk } : {}),
        }
      : { kind };
    save.reset();
    setConfirming(body);
  }

  return (
    <details
      className="rounded-md border border-zinc-200 p-3"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="upstream-auth-settings"
    >
      <summary className="cursor-pointer text-sm font-medium text-zinc-800">Authorization settings</summary>
      <form className="mt-3 space-y-3" onSubmit={submit} noValidate>
        <SelectField
          id={`${id}-kind`}
          label="How the gateway authorises"
          options={valueOptions(CONNECTION_AUTH_KINDS, AUTH_KIND_LABELS)}
          value={kind}
          onValueChange={(v) => setKind(v as ConnectionAuthKind)}
          data-testid="upstream-auth-kind-select"
        />
        {oauth ? (
          <>
            <InputField
              id={`${id}-scopes`}
              label="Scopes"
              hint="Comma or space separated. Empty: what the server asks for, else its advertised scopes."
              value={scopes}
              onValueChange={setScopes}
              {...codeInput}
              data-testid="upstream-auth-scopes"
            />
            <InputField
              id={`${id}-client-id`}
              label="Pre-registered client id (optional)"
              hint={
                kind === "client_credentials"
                  ? "Required: the client the server's console issued."
                  : "Empty: the gateway registers itself (metadata document or dynamic registration)."
              }
              value={clientId}
              onValueChange={setClientId}
              {...codeInput}
              data-testid="upstream-auth-client-id"
            />
            <InputField
              id={`${id}-client-secret`}
              label="Client secret (write only)"
              hint={
                auth.hasClientCredential
                  ? "A secret is stored. Saving a client id replaces the stored client: enter its secret again."
                  : "Stored encrypted; never shown again."
              }
              type="password"
              value={clientSecret}
              onValueChange={setClientSecret}
              {...secretInput}
              data-testid="upstream-auth-client-secret"
            />
            <SelectField
              id={`${id}-method`}
              label="Token endpoint authentication"
              placeholder="As the server supports"
              options={valueOptions(UPSTREAM_TOKEN_AUTH_METHODS, TOKEN_AUTH_METHOD_LABELS)}
              value={method}
              onValueChange={(v) => setMethod(v as UpstreamTokenAuthMethod | "")}
              data-testid="upstream-auth-method"
            />
            {method === "private_key_jwt" ? (
              <TextareaField
                id={`${id}-jwk`}
                label="Private key (JWK, write only)"
                rows={3}
                value={jwk}
                onValueChange={setJwk}
                error={jwkError ?? undefined}
                {...codeInput}
                data-testid="upstream-auth-jwk"
              />
            ) : null}
          </>
        ) : null}
        <div className="flex items-center gap-3">
          <Button type="submit" size="sm" variant="secondary" data-testid="upstream-auth-save">
            Save authorization
          </Button>
          <span className="text-xs text-zinc-500">Saving drops every existing grant.</span>
        </div>
        <ApiErrorAlert error={save.error} title="Could not save the authorization" />
      </form>
      <ConfirmDialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Change how this connection authorises?"
        body={
          auth.grant || auth.linkedPeople > 0
            ? "Every existing grant is dropped (the company's and every linked account): the connection must be connected again before agents can use it."
            : "Any existing grant is dropped: the connection must be connected before agents can use it."
        }
        confirmLabel="Save and drop grants"
        pendingLabel="Saving…"
        tone="danger"
        errorTitle="Could not save the authorization"
        onConfirm={() => (confirming ? save.mutateAsync(confirming) : undefined)}
        data-testid="upstream-auth-save-dialog"
      />
    </details>
  );
}
