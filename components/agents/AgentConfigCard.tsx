"use client";

import Link from "next/link";
import { type ConfigAction, FormNotice, useConfigForm } from "../config/form-state";
import {
  FileEditor,
  type FileHeadView,
  type FileView,
  NewFileForm,
  RevisionBadge,
} from "../config/RevisionedFile";
import { Alert } from "../ui/Alert";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { codeInput, InputField } from "../ui/FieldControls";
import { KeyValueList } from "../ui/KeyValueList";
import { SubmitButton } from "../ui/SubmitButton";

export interface AgentConfigView {
  model: string | null;
  monthlyBudgetCents: number | null;
  instructions: FileHeadView[];
}

export interface AgentConfigCardProps {
  config: AgentConfigView;
  /** The instruction file shown below the list (the page's `?file=`), with its body. */
  selected: FileView | null;
  /** Admins edit (`agents:manage`); everyone else reads. */
  canManage: boolean;
  /** The agent page's address; a file is selected with `?file=<path>`. */
  pageHref: string;
  action: ConfigAction;
}

/** A budget in cents as money, e.g. `$250.00 / month`; null: no limit set. */
export const formatBudget = (cents: number | null) =>
  cents === null
    ? null
    : `${(cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" })} / month`;

/** Agent page › Configuration: model, monthly budget and instruction files, edited by admins. */
export function AgentConfigCard({ config, selected, canManage, pageHref, action }: AgentConfigCardProps) {
  const [state, formAction] = useConfigForm(action);
  return (
    <Card data-testid="agent-config">
      <CardHeader
        title="Configuration"
        description="The model the agent asks for, its monthly budget and its instruction files."
      />
      <CardBody className="space-y-6">
        <FormNotice state={state} testId="agent-config" />
        <KeyValueList
          data-testid="agent-config-settings"
          items={[
            { label: "Model", value: config.model ?? "adapter default" },
            { label: "Budget", value: formatBudget(config.monthlyBudgetCents) ?? "no limit set" },
          ]}
        />
        {canManage ? (
          <form
            action={formAction}
            className="flex flex-wrap items-end gap-3"
            data-testid="agent-config-form"
          >
            <input type="hidden" name="intent" value="settings" />
            <InputField
              id="agent-model"
              label="Model"
              name="model"
              defaultValue={config.model ?? ""}
              placeholder="e.g. claude-sonnet-4-5"
              fieldClassName="min-w-56 flex-1"
              {...codeInput}
              data-testid="agent-config-model"
            />
            <InputField
              id="agent-budget"
              label="Monthly budget (USD)"
              name="budget"
              type="number"
              min={0}
              max={1_000_000}
              step="0.01"
              defaultValue={config.monthlyBudgetCents === null ? "" : String(config.monthlyBudgetCents / 100)}
              fieldClassName="w-48"
              data-testid="agent-config-budget"
            />
            <SubmitButton pendingLabel="Saving…" data-testid="agent-config-save">
              Save settings
            </SubmitButton>
          </form>
        ) : null}

        <section className="space-y-3" aria-labelledby="agent-instructions-heading">
          <h3 id="agent-instructions-heading" className="text-sm font-semibold text-zinc-900">
            Instructions
          </h3>
          {config.instructions.length === 0 ? (
            <p className="text-sm text-zinc-600" data-testid="agent-instructions-empty">
              No instruction files yet.{canManage ? " Create AGENTS.md below." : ""}
            </p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm" data-testid="agent-instructions">
              {config.instructions.map((f) => (
                <li key={f.path} className="flex items-center gap-3 py-2">
                  <Link
                    href={`${pageHref}?file=${encodeURIComponent(f.path)}`}
                    className={cn(
                      "rounded font-mono text-xs text-zinc-800 hover:text-accent-700 hover:underline",
                      selected?.path === f.path && "font-semibold",
                      focusRing,
                    )}
                    data-testid={`agent-instruction-${f.path}`}
                  >
                    {f.path}
                  </Link>
                  <RevisionBadge file={f} />
                </li>
              ))}
            </ul>
          )}
          {selected && !selected.versioned ? (
            <div className="space-y-3" data-testid="agent-legacy">
              <Alert tone="warning">
                The legacy prompt template has no revisions, so assistants cannot edit it. Migrate it to a
                managed file to edit it safely; the runner's behaviour is unchanged.
              </Alert>
              <FileEditor file={selected} canEdit={false} formAction={formAction} testId="agent-legacy" />
              {canManage ? (
                <form action={formAction} data-testid="agent-legacy-migrate-form">
                  <input type="hidden" name="intent" value="migrate" />
                  <SubmitButton
                    variant="secondary"
                    pendingLabel="Migrating…"
                    data-testid="agent-legacy-migrate"
                  >
                    Migrate to AGENTS.md
                  </SubmitButton>
                </form>
              ) : null}
            </div>
          ) : selected ? (
            <FileEditor
              file={selected}
              canEdit={canManage}
              formAction={formAction}
              testId="agent-instruction"
            />
          ) : null}
          {canManage ? (
            <details
              className="rounded-md border border-zinc-200 p-3"
              open={config.instructions.length === 0}
            >
              <summary className="cursor-pointer text-sm font-medium text-zinc-800">
                New instruction file
              </summary>
              <div className="pt-3">
                <NewFileForm
                  formAction={formAction}
                  defaultPath={config.instructions.some((f) => f.path === "AGENTS.md") ? "" : "AGENTS.md"}
                  testId="agent-instruction"
                />
              </div>
            </details>
          ) : null}
        </section>
      </CardBody>
    </Card>
  );
}
