/** Tools & Access API shapes: Profiles: entries, bindings and the pickers' choices. See types.ts. */

import type { Risk } from "@/server/contracts/values";
import type { ISODateString } from "../types";

export type { Risk };

export interface NamedRef {
  id: string;
  name: string;
}

// Profiles

export type ProfileStatus = "active" | "archived";
export type EntryMode = "include" | "exclude";

export type Selector =
  | { type: "application"; applicationId: string }
  | { type: "connection"; connectionId: string }
  | { type: "catalog_entry"; catalogEntryId: string }
  | { type: "tool_glob"; glob: string }
  | { type: "risk"; risk: Risk };

export type SelectorType = Selector["type"];

export interface ProfileEntry {
  id: string;
  mode: EntryMode;
  selector: Selector;
  /** Human text from the server, e.g. "tools matching github__*". */
  label: string;
}

export type BindingTargetType = "company" | "project" | "agent" | "routine" | "issue";

export interface ProfileBinding {
  id: string;
  targetType: BindingTargetType;
  targetId: string | null;
  /** Human text from the server, e.g. "Agent · Triage Bot" or "Company". */
  targetLabel: string;
}

export interface Profile {
  id: string;
  name: string;
  description: string | null;
  status: ProfileStatus;
  entries: ProfileEntry[];
  bindings: ProfileBinding[];
  createdAt: ISODateString;
  updatedAt: ISODateString;
}

export interface ProfilesResponse {
  profiles: Profile[];
}

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

export interface IssueRef {
  id: string;
  identifier: string;
  title: string;
}

/** `GET /targets` */
export interface ToolTargets {
  agents: NamedRef[];
  projects: NamedRef[];
  routines: NamedRef[];
  issues: IssueRef[];
}

export interface CatalogEntryOption {
  id: string;
  name: string;
  /** `slug__tool` */
  qualifiedName: string;
  risk: Risk | string;
  /** e.g. "active", "quarantined", "disabled", "removed" */
  status: string;
  applicationId: string;
  applicationSlug: string;
  applicationName: string;
  connectionId: string | null;
  connectionName: string | null;
}

export interface ApplicationOption {
  id: string;
  slug: string;
  name: string;
}

export interface ConnectionOption {
  id: string;
  name: string;
  applicationId: string;
}

/** `GET /catalog-entries`. Every list may be empty before applications are registered. */
export interface CatalogEntriesResponse {
  entries: CatalogEntryOption[];
  applications: ApplicationOption[];
  connections: ConnectionOption[];
}
