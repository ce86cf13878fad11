"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Badge } from "../ui/Badge";
import { Card, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";

interface SlotView {
  name: string;
  required: boolean;
  flag?: string;
  secret?: boolean;
  rule: { kind: string };
}

export interface StdioCommandRow {
  id: string;
  key: string;
  name: string;
  description: string | null;
  fixture: string | null;
  command: string | null;
  args: string[];
  argSlots: SlotView[];
  envSlots: SlotView[];
  passEnv: string[];
  enabled: boolean;
  requiresIsolation: boolean;
  allowNetwork: boolean;
  builtin: boolean;
}

interface HostView {
  stdioEnabled: boolean;
  stdioReason: string;
  isolation: string;
}

/**
 * Settings › Instance: the operator's stdio command catalogue. Company templates may start only
 * these commands (filling their slots); disabling one stops its slots and refuses new launches.
 */
export function StdioCommandsCard() {
  const [data, setData] = useState<{ commands: StdioCommandRow[]; host: HostView } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setData(
        await apiFetch<{ commands: StdioCommandRow[]; host: HostView }>("/api/instance/stdio-commands"),
      );
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (c: StdioCommandRow) => {
    setPending(c.id);
    try {
      await apiFetch(`/api/instance/stdio-commands/${c.id}`, {
        method: "PATCH",
        body: { enabled: !c.enabled },
      });
      await load();
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  };

  return (
    <Card data-testid="stdio-commands">
      <CardHeader
        title="Approved stdio commands"
        description={
          <>
            The only local commands a company's stdio template may start. Companies pick one and fill its
            slots; they never give a command or arguments. Add commands with{" "}
            <code className="rounded bg-zinc-100 px-1">POST /api/instance/stdio-commands</code> (see
            docs/runtime.md).
          </>
        }
      />
      <ApiErrorAlert
        error={error}
        title="Could not load or change the catalogue"
        retry={() => void load()}
        className="m-5"
      />
      {data ? (
        <>
          <p className="border-b border-zinc-100 px-5 py-3 text-sm text-zinc-600" data-testid="stdio-host">
            Local stdio servers are <strong>{data.host.stdioEnabled ? "on" : "off"}</strong> on this host (
            {data.host.stdioReason}). Isolation: {data.host.isolation}.
          </p>
          <ul className="divide-y divide-zinc-100">
            {data.commands.map((c) => (
              <li
                key={c.id}
                className="flex flex-wrap items-start justify-between gap-3 px-5 py-3 text-sm"
                data-testid={`stdio-command-${c.key}`}
              >
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-zinc-900">{c.name}</span>
                    <code className="rounded bg-zinc-100 px-1 text-xs">{c.key}</code>
                    <Badge tone={c.enabled ? "success" : "neutral"} dot>
                      {c.enabled ? "Enabled" : "Disabled"}
                    </Badge>
                    {c.requiresIsolation ? <Badge tone="info">Requires isolation</Badge> : null}
                    {c.builtin ? <Badge>Built in</Badge> : null}
                  </div>
                  <div className="break-all font-mono text-xs text-zinc-600">
                    {c.fixture ? `fixture ${c.fixture} (read-only bundle)` : [c.command, ...c.args].join(" ")}
                    {c.argSlots
                      .map((s) => ` ${s.flag ? `${s.flag} ` : ""}<${s.name}${s.required ? "" : "?"}>`)
                      .join("")}
                  </div>
                  {c.envSlots.length > 0 || c.passEnv.length > 0 ? (
                    <div className="text-xs text-zinc-500">
                      Environment:{" "}
                      {[
                        ...c.envSlots.map((s) => `${s.name}${s.secret ? " (secret)" : ""}`),
                        ...c.passEnv.map((k) => `${k} (from host)`),
                      ].join(", ")}
                    </div>
                  ) : null}
                </div>
                <PendingButton
                  variant={c.enabled ? "secondary" : "primary"}
                  size="sm"
                  pending={pending === c.id}
                  pendingLabel={c.enabled ? "Disabling…" : "Enabling…"}
                  onClick={() => void toggle(c)}
                  data-testid={`stdio-command-toggle-${c.key}`}
                >
                  {c.enabled ? "Disable" : "Enable"}
                </PendingButton>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
