"use client";

import { ENTRY_MODE_LABELS, SELECTOR_TYPE_LABELS } from "@/components/labels";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { RemoveCell } from "./controls";
import { useCatalogEntries } from "./hooks";
import { EntryAddForm } from "./ProfileEntryForm";
import { useProfileEntryActions } from "./profile-queries";
import { QuarantineBadge } from "./QuarantineBadge";
import type { EntryMode, Profile, Selector } from "./types";

function selectorTypeLabel(selector: Selector): string {
  return SELECTOR_TYPE_LABELS[selector.type] ?? selector.type;
}

/** The entries table of a profile, with the add form when `canEdit`. */
export function EntriesSection({
  companyId,
  profile,
  canEdit,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
}) {
  const catalog = useCatalogEntries(companyId);
  const { remove } = useProfileEntryActions(companyId, profile.id);

  const statusById = new Map((catalog.data?.entries ?? []).map((e) => [e.id, e.status]));

  return (
    <Card>
      <CardHeader
        title="Entries"
        titleAs="h3"
        description="What this profile includes or excludes. Tools are denied unless an entry includes them."
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert error={remove.error} title="Could not remove the entry" />
        {profile.entries.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="profile-entries-empty">
            No entries yet. An empty profile grants no tools.
          </p>
        ) : (
          <Table data-testid="profile-entries">
            <HeaderRow columns={["Mode", "Selects", "By"]} actions={canEdit} />
            <TBody>
              {profile.entries.map((entry) => {
                const status =
                  entry.selector.type === "catalog_entry"
                    ? statusById.get(entry.selector.catalogEntryId)
                    : undefined;
                return (
                  <TR
                    key={entry.id}
                    data-testid="profile-entry-row"
                    data-entry-id={entry.id}
                    data-mode={entry.mode}
                  >
                    <TD>
                      <EntryModeBadge mode={entry.mode} />
                    </TD>
                    <TD className="text-zinc-900">
                      <span className="flex flex-wrap items-center gap-2">
                        <span data-testid="profile-entry-label">{entry.label}</span>
                        {status ? <QuarantineBadge status={status} /> : null}
                      </span>
                    </TD>
                    <TD className="text-zinc-500">{selectorTypeLabel(entry.selector)}</TD>
                    {canEdit ? (
                      <RemoveCell
                        remove={remove}
                        id={entry.id}
                        label={`Remove entry: ${entry.label}`}
                        testId="profile-entry-remove"
                      />
                    ) : null}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
        {canEdit ? <EntryAddForm companyId={companyId} profile={profile} catalog={catalog} /> : null}
      </CardBody>
    </Card>
  );
}

export function EntryModeBadge({ mode }: { mode: EntryMode }) {
  return (
    <Badge
      tone={mode === "include" ? "success" : "danger"}
      data-testid="profile-entry-mode-badge"
      data-mode={mode}
    >
      {ENTRY_MODE_LABELS[mode] ?? mode}
    </Badge>
  );
}
