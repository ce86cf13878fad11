"use client";

import { type FormEvent, useState } from "react";
import { ActionButtons } from "../ui/ActionButtons";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ConfirmBar } from "./controls";
import { ProfileDetailsFields, useProfileDetails } from "./ProfileDetailsFields";
import { useProfileActions } from "./profile-queries";
import { ReadOnlyNote } from "./ReadOnlyNote";
import type { Profile, ProfileUpdateInput } from "./types";

/** Name, status and description of a profile, with edit, archive, restore and delete. */
export function ProfileHeader({
  companyId,
  profile,
  canEdit,
  onDeleted,
  onClose,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
  onDeleted?: () => void;
  onClose?: () => void;
}) {
  const [confirming, setConfirming] = useState<"archive" | "delete" | null>(null);
  const [editing, setEditing] = useState(false);
  const { update, remove } = useProfileActions(companyId, profile.id, {
    updated: () => {
      setConfirming(null);
      setEditing(false);
    },
    deleted: () => {
      setConfirming(null);
      onDeleted?.();
    },
  });

  const archived = profile.status === "archived";
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="profile-editor-name">{profile.name}</span>
            <Badge tone={archived ? "neutral" : "success"} data-testid="profile-status">
              {archived ? "Archived" : "Active"}
            </Badge>
          </span>
        }
        description={profile.description ?? undefined}
        actions={
          <>
            {canEdit && !editing ? (
              <ActionButtons
                actions={[
                  {
                    label: "Edit details",
                    variant: "secondary",
                    onClick: () => setEditing(true),
                    "data-testid": "profile-edit",
                  },
                  archived
                    ? {
                        label: "Restore",
                        variant: "secondary",
                        disabled: update.isPending,
                        onClick: () => update.mutate({ status: "active" }),
                        "data-testid": "profile-restore",
                      }
                    : {
                        label: "Archive",
                        variant: "secondary",
                        onClick: () => setConfirming("archive"),
                        "data-testid": "profile-archive",
                      },
                  {
                    label: "Delete",
                    variant: "danger",
                    onClick: () => setConfirming("delete"),
                    "data-testid": "profile-delete",
                  },
                ]}
              />
            ) : null}
            {onClose ? (
              <Button variant="ghost" size="sm" onClick={onClose}>
                Close
              </Button>
            ) : null}
          </>
        }
      />
      {archived || !canEdit || editing || confirming || update.error || remove.error ? (
        <CardBody className="space-y-3">
          {archived ? (
            <p className="text-sm text-zinc-600">
              This profile is archived. Restore it to let its bindings apply again.
            </p>
          ) : null}
          {!canEdit ? (
            <ReadOnlyNote data-testid="profile-read-only">
              You can view this profile but not change it.
            </ReadOnlyNote>
          ) : null}
          {editing ? (
            <ProfileDetailsForm
              profile={profile}
              pending={update.isPending}
              onCancel={() => {
                setEditing(false);
                update.reset();
              }}
              onSubmit={(body) => update.mutate(body)}
            />
          ) : null}
          {confirming === "archive" ? (
            <ConfirmBar
              tone="warning"
              confirmLabel="Archive profile"
              pending={update.isPending}
              error={update.error}
              onCancel={() => setConfirming(null)}
              onConfirm={() => update.mutate({ status: "archived" })}
              data-testid="profile-archive-bar"
            >
              Archive “{profile.name}”? Its bindings stop applying until you restore it.
            </ConfirmBar>
          ) : null}
          {confirming === "delete" ? (
            <ConfirmBar
              confirmLabel="Delete profile"
              pending={remove.isPending}
              error={remove.error}
              onCancel={() => setConfirming(null)}
              onConfirm={() => remove.mutate()}
              data-testid="profile-delete-bar"
            >
              Delete “{profile.name}” with its {profile.entries.length}{" "}
              {profile.entries.length === 1 ? "entry" : "entries"} and {profile.bindings.length}{" "}
              {profile.bindings.length === 1 ? "binding" : "bindings"}? This cannot be undone.
            </ConfirmBar>
          ) : null}
          <ApiErrorAlert error={update.error} title="Could not update the profile" />
          <ApiErrorAlert error={remove.error} title="Could not delete the profile" />
        </CardBody>
      ) : null}
    </Card>
  );
}

function ProfileDetailsForm({
  profile,
  pending,
  onSubmit,
  onCancel,
}: {
  profile: Profile;
  pending: boolean;
  onSubmit: (body: ProfileUpdateInput) => void;
  onCancel: () => void;
}) {
  const details = useProfileDetails(profile);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = details.read();
    if (!read) return;
    const body: ProfileUpdateInput = { name: read.name };
    if (read.description) body.description = read.description;
    else if (profile.description) body.description = null;
    onSubmit(body);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Edit profile details">
      <ProfileDetailsFields details={details} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <PendingButton pending={pending} pendingLabel="Saving…" type="submit" size="sm">
          Save details
        </PendingButton>
      </div>
    </form>
  );
}
