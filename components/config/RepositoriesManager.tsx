"use client";

import { Card, CardHeader } from "../ui/Card";
import { codeInput, DescriptionField, InputField, NameField } from "../ui/FieldControls";
import { ListTable } from "../ui/ListTable";
import { TD, TR } from "../ui/Table";
import { ActionFormCard, type ConfigAction, FormNotice, useConfigForm } from "./form-state";

export interface RepositoryRow {
  id: string;
  name: string;
  url: string;
  defaultBranch: string;
  description: string | null;
}

export interface RepositoriesManagerProps {
  repositories: RepositoryRow[];
  /** Admins add repositories (`agents:manage`); members see the list. */
  canManage: boolean;
  action: ConfigAction;
}

/** Company Settings › Repositories: the list projects choose their repositories from. */
export function RepositoriesManager({ repositories, canManage, action }: RepositoriesManagerProps) {
  const [state, formAction] = useConfigForm(action);
  return (
    <div className="space-y-6">
      <FormNotice state={state} testId="repositories" />
      {canManage ? (
        <ActionFormCard
          title="Add a repository"
          description="An address only (https:// or git@host:path, never a token); Paperclip does not fetch it."
          formAction={formAction}
          intent="create-repository"
          testId="repository-add"
          submitLabel="Add repository"
          pendingLabel="Adding…"
        >
          <div className="flex flex-wrap gap-3">
            <NameField
              idPrefix="repository"
              name="name"
              fieldClassName="w-56"
              data-testid="repository-add-name"
            />
            <InputField
              id="repository-url"
              label="URL"
              name="url"
              required
              placeholder="https://github.com/acme/app"
              fieldClassName="min-w-72 flex-1"
              {...codeInput}
              data-testid="repository-add-url"
            />
            <InputField
              id="repository-branch"
              label="Default branch"
              name="defaultBranch"
              defaultValue="main"
              fieldClassName="w-40"
              {...codeInput}
              data-testid="repository-add-branch"
            />
          </div>
          <DescriptionField
            idPrefix="repository"
            name="description"
            data-testid="repository-add-description"
          />
        </ActionFormCard>
      ) : null}
      <Card>
        <CardHeader title="Repositories" description={`${repositories.length} in this organization`} />
        <ListTable
          items={repositories}
          columns={["Name", "URL", "Default branch"]}
          testId="repositories-table"
          empty={{
            title: "No repositories yet",
            description: canManage
              ? "Add the repositories your projects work in; each project then chooses from this list."
              : "An admin can add the organization's repositories here.",
            "data-testid": "repositories-empty",
          }}
        >
          {(r) => (
            <TR key={r.id} data-testid={`repository-row-${r.name}`}>
              <TD>
                <div className="font-medium text-zinc-900">{r.name}</div>
                {r.description ? <div className="text-zinc-500">{r.description}</div> : null}
              </TD>
              <TD className="font-mono text-xs">{r.url}</TD>
              <TD className="font-mono text-xs">{r.defaultBranch}</TD>
            </TR>
          )}
        </ListTable>
      </Card>
    </div>
  );
}
