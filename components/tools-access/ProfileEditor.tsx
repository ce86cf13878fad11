"use client";

import { BindingsSection } from "./ProfileBindings";
import { EntriesSection } from "./ProfileEntries";
import { ProfileHeader } from "./ProfileHeader";
import { ProfilePreview } from "./ProfilePreview";
import type { Profile } from "./types";

export { BINDING_LEVELS_HINT } from "./ProfileBindings";
export { EntryModeBadge } from "./ProfileEntries";
export { NO_APPLICATIONS_HINT } from "./ProfileEntryForm";

export interface ProfileEditorProps {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
  /** Called after the profile was deleted. */
  onDeleted?: () => void;
  /** Shows a "Close" button. */
  onClose?: () => void;
  className?: string;
}

/** Entries and bindings of one profile, with forms to change them when `canEdit`. */
export function ProfileEditor({
  companyId,
  profile,
  canEdit,
  onDeleted,
  onClose,
  className,
}: ProfileEditorProps) {
  return (
    <div className={className} data-testid="profile-editor" data-profile-id={profile.id}>
      <div className="space-y-6">
        <ProfileHeader
          companyId={companyId}
          profile={profile}
          canEdit={canEdit}
          onDeleted={onDeleted}
          onClose={onClose}
        />
        <EntriesSection companyId={companyId} profile={profile} canEdit={canEdit} />
        <ProfilePreview companyId={companyId} profile={profile} />
        <BindingsSection companyId={companyId} profile={profile} canEdit={canEdit} />
      </div>
    </div>
  );
}
