"use client";

import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Badge } from "../ui/Badge";
import { Card, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { Field } from "../ui/Field";
import { InputField } from "../ui/FieldControls";
import { controlStyles } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";

/** The add form's one-line fields; `code` ones are monospaced, unchecked and have a test id. */
const ADD_TEXT_FIELDS: {
  name: "key" | "name" | "command";
  label: string;
  required?: true;
  hint?: string;
  code?: true;
}[] = [
  { name: "key", label: "Key", required: true, hint: "e.g. acme.github; templates name it", code: true },
  { name: "name", label: "Name" },
  {
    name: "command",
    label: "Executable",
    required: true,
    hint: "An absolute path (or node, npx, python3, uvx, resolved now)",
    code: true,
  },
];

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
  const id = useId();
  const [draft, setDraft] = useState({ key: "", name: "", command: "", args: "", requiresIsolation: true });
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<unknown>(null);

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

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setAdding(true);
    setAddError(null);
    try {
      await apiFetch("/api/instance/stdio-commands", {
        method: "POST",
        body: {
          key: draft.key.trim(),
          name: draft.name.trim() || draft.key.trim(),
          command: draft.command.trim(),
          // One literal argument per line: no shell ever sees them.
          args: draft.args.split("\n").filter((a) => a.length > 0),
          requiresIsolation: draft.requiresIsolation,
        },
      });
      setDraft({ key: "", name: "", command: "", args: "", requiresIsolation: true });
      await load();
    } catch (err) {
      setAddError(err);
    } finally {
      setAdding(false);
    }
  };

  return (
    <Card data-testid="stdio-commands">
      <CardHeader
        title="Approved stdio commands"
        description={
          <>
            The only local commands a company's stdio template may start. Companies pick one and fill its
            slots; they never give a command or arguments. Add a command below; one with slots (values a
            company may fill) is added with{" "}
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
          <form
            onSubmit={(e) => void add(e)}
            className="grid gap-3 border-t border-zinc-200 px-5 py-4 sm:grid-cols-2"
            data-testid="stdio-command-add"
          >
            {ADD_TEXT_FIELDS.map((f) => (
              <InputField
                key={f.name}
                id={`${id}-${f.name}`}
                label={f.label}
                required={f.required}
                hint={f.hint}
                value={draft[f.name]}
                onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
                className={f.code ? "font-mono" : undefined}
                spellCheck={f.code ? false : undefined}
                data-testid={f.code ? `stdio-command-add-${f.name}` : undefined}
              />
            ))}
            <Field id={`${id}-args`} label="Fixed arguments" hint="One per line, passed literally">
              {(control) => (
                <textarea
                  {...control}
                  rows={2}
                  value={draft.args}
                  onChange={(e) => setDraft({ ...draft, args: e.target.value })}
                  className={cn(controlStyles, "py-2 font-mono")}
                  spellCheck={false}
                  data-testid="stdio-command-add-args"
                />
              )}
            </Field>
            <label className="flex items-center gap-2 text-sm text-zinc-700 sm:col-span-2">
              <input
                type="checkbox"
                checked={draft.requiresIsolation}
                onChange={(e) => setDraft({ ...draft, requiresIsolation: e.target.checked })}
              />
              Requires isolation (refused where slots cannot run as an unprivileged user or in bwrap)
            </label>
            <ApiErrorAlert error={addError} title="Could not add the command" className="sm:col-span-2" />
            <div className="sm:col-span-2">
              <PendingButton
                type="submit"
                pending={adding}
                pendingLabel="Adding…"
                data-testid="stdio-command-add-submit"
              >
                Add command
              </PendingButton>
            </div>
          </form>
        </>
      ) : null}
    </Card>
  );
}
