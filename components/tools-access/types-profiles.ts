/**
 * Tools & Access API shapes: Profiles: entries, bindings and the pickers' choices. Responses
 * are the server's contracts as the browser receives them (`Wire<…>`); inputs are request
 * bodies. See types.ts.
 */

import type * as Catalog from "@/server/contracts/api/catalog";
import type { NamedRef as NamedRefSchema, Wire } from "@/server/contracts/api/common";
import type * as Profiles from "@/server/contracts/api/profiles";
import type { BindingTarget, PROFILE_ENTRY_MODES, PROFILE_STATUSES, Risk } from "@/server/contracts/values";

export type { Risk };

export type NamedRef = Wire<typeof NamedRefSchema>;

// Profiles

export type ProfileStatus = (typeof PROFILE_STATUSES)[number];
export type EntryMode = (typeof PROFILE_ENTRY_MODES)[number];

export type Selector = Wire<typeof Profiles.ProfileSelector>;
export type SelectorType = Selector["type"];

export type ProfileEntry = Wire<typeof Profiles.ProfileEntry>;
export type BindingTargetType = BindingTarget;
export type ProfileBinding = Wire<typeof Profiles.ProfileBinding>;
export type Profile = Wire<typeof Profiles.Profile>;
export type ProfilesResponse = Wire<typeof Profiles.ProfilesResponse>;

export interface ProfileCreateInput {
  name: string;
  description?: string;
}

export interface ProfileUpdateInput {
  name?: string;
  description?: string | null;
  status?: ProfileStatus;
}

export interface ProfileEntryInput {
  mode: EntryMode;
  selector: Selector;
}

export interface ProfileBindingInput {
  targetType: BindingTargetType;
  targetId?: string;
}

// Pickers

export type IssueRef = Wire<typeof Profiles.IssueRef>;
/** `GET /targets` */
export type ToolTargets = Wire<typeof Profiles.ToolTargets>;

export type CatalogEntryOption = Wire<typeof Catalog.CatalogEntryOption>;
export type ApplicationOption = Wire<typeof Catalog.ApplicationOption>;
export type ConnectionOption = Wire<typeof Catalog.ConnectionOption>;
/** `GET /catalog-entries`. Every list may be empty before applications are registered. */
export type CatalogEntriesResponse = Wire<typeof Catalog.CatalogEntriesResponse>;
