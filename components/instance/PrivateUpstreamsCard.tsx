"use client";

import { type FormEvent, useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { ConfirmButton } from "../ui/ConfirmDialog";
import { Field } from "../ui/Field";
import { InputField } from "../ui/FieldControls";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";

export interface PrivateUpstreamRow {
  origin: string;
  note: string | null;
  addedAt: string;
}

export interface UnlistedOriginRow {
  origin: string;
  connections: number;
  companies: number;
}

export interface PrivateUpstreamsState {
  entries: PrivateUpstreamRow[];
  /** Grants the instance holds by itself (this instance's own example fixtures). */
  builtIn: { origin: string; pathPrefix?: string }[];
  /** Origins live connections point at that nobody listed: those connections fail until allowed. */
  unlisted: UnlistedOriginRow[];
}

/**
 * Settings › Instance › Private upstreams: the loopback/private origins company connections may
 * reach. Nothing else on the host's own network is reachable from a connection.
 */
export function PrivateUpstreamsCard({ initial }: { initial: PrivateUpstreamsState }) {
  const [state, setState] = useState(initial);
  const { entries, builtIn, unlisted } = state;
  const [origin, setOrigin] = useState("");
  const [note, setNote] = useState("");
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run(key: string, path: string, body: unknown) {
    setPending(key);
    setError(null);
    try {
      setState(await apiFetch<PrivateUpstreamsState>(path, { method: "POST", body }));
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setPending(null);
    }
  }

  /** Asked for in a confirmation dialog, which shows a failure itself. */
  async function remove(origin: string) {
    setError(null);
    setState(
      await apiFetch<PrivateUpstreamsState>("/api/instance/private-upstreams/remove", {
        method: "POST",
        body: { origin },
      }),
    );
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const ok = await run("add", "/api/instance/private-upstreams", {
      origin,
      ...(note.trim() ? { note } : {}),
    });
    if (ok) {
      setOrigin("");
      setNote("");
    }
  }

  return (
    <Card id="private-upstreams" className="scroll-mt-24" data-testid="private-upstreams">
      <CardHeader
        title="Private upstreams"
        description={
          <>
            Loopback and private-network origins (exact scheme, host and port) that company connections may
            reach, e.g. <code className="rounded bg-zinc-100 px-1">http://127.0.0.1:8080</code>. A company
            admin cannot reach anything else on this host's network; cloud metadata addresses are never
            reachable. Removing an origin makes the next call of every connection to it fail.
          </>
        }
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert error={error} title="Could not change the list" />
        <ul className="divide-y divide-zinc-100 text-sm" data-testid="private-upstreams-list">
          {builtIn.map((g) => (
            <li
              key={`builtin-${g.origin}`}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
            >
              <span className="font-mono text-zinc-900">
                {g.origin}
                {g.pathPrefix ?? ""}
              </span>
              <span className="text-zinc-500">built in: this instance's example fixtures</span>
            </li>
          ))}
          {entries.map((e) => (
            <li
              key={e.origin}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="private-upstream"
            >
              <span className="min-w-0">
                <span className="font-mono text-zinc-900">{e.origin}</span>
                {e.note ? <span className="ml-2 text-zinc-600">{e.note}</span> : null}
              </span>
              <span className="flex items-center gap-3 text-zinc-500">
                <span>
                  added <RelativeTime value={e.addedAt} />
                </span>
                <ConfirmButton
                  variant="secondary"
                  disabled={pending !== null}
                  aria-label={`Remove ${e.origin}`}
                  title={`Remove ${e.origin}?`}
                  body="Company connections to this origin are refused again from their next call."
                  confirmLabel="Remove"
                  pendingLabel="Removing…"
                  tone="danger"
                  errorTitle="Could not remove the origin"
                  onConfirm={() => remove(e.origin)}
                  triggerTestId="private-upstream-remove"
                >
                  Remove
                </ConfirmButton>
              </span>
            </li>
          ))}
          {entries.length === 0 ? <li className="py-2 text-zinc-600">No origins listed.</li> : null}
        </ul>
        {unlisted.length > 0 ? (
          <section aria-labelledby="private-upstreams-unlisted" data-testid="private-upstreams-unlisted">
            <h4 id="private-upstreams-unlisted" className="text-sm font-semibold text-zinc-900">
              Used by connections but not listed
            </h4>
            <p className="text-sm text-zinc-600">
              These connections fail until an origin is allowed (or they are moved elsewhere).
            </p>
            <ul className="divide-y divide-zinc-100 text-sm">
              {unlisted.map((u) => (
                <li key={u.origin} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="font-mono text-zinc-900">{u.origin}</span>
                  <span className="flex items-center gap-3 text-zinc-500">
                    <span>
                      {u.connections} connection{u.connections === 1 ? "" : "s"} in {u.companies} compan
                      {u.companies === 1 ? "y" : "ies"}
                    </span>
                    <PendingButton
                      variant="secondary"
                      size="sm"
                      pending={pending === `allow-${u.origin}`}
                      pendingLabel="Allowing…"
                      disabled={pending !== null}
                      onClick={() =>
                        void run(`allow-${u.origin}`, "/api/instance/private-upstreams", { origin: u.origin })
                      }
                      aria-label={`Allow ${u.origin}`}
                    >
                      Allow
                    </PendingButton>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <form className="flex flex-wrap items-end gap-2" onSubmit={add} aria-label="Add a private upstream">
          {/* The control is required but the label carries no marker, so no InputField here. */}
          <Field id="private-upstream-origin" label="Origin" className="min-w-64 flex-1">
            {(control) => (
              <Input
                {...control}
                value={origin}
                onChange={(e) => setOrigin(e.target.value)}
                placeholder="http://127.0.0.1:8080"
                required
                data-testid="private-upstream-origin"
              />
            )}
          </Field>
          <InputField
            id="private-upstream-note"
            label="Note (optional)"
            fieldClassName="min-w-48 flex-1"
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <PendingButton
            type="submit"
            pending={pending === "add"}
            pendingLabel="Adding…"
            disabled={pending !== null}
          >
            Add origin
          </PendingButton>
        </form>
      </CardBody>
    </Card>
  );
}
