/** What the consent and device-login pages show (server/oauth/consent.ts builds it). */
export interface ConsentOrganization {
  id: string;
  name: string;
  role: "owner" | "admin" | "member" | "viewer" | null;
  /** False for a pinned company that is deleted or not yours: shown as "unavailable". */
  available: boolean;
  canWrite: boolean;
  /** Why write access is disabled, when it is. */
  writeDisabledReason: string | null;
}

export interface ConsentView {
  kind: "browser" | "device";
  requestId: string;
  client: {
    name: string | null;
    selfReported: true;
    origin: string | null;
    clientId: string;
    /** An inline `data:image/…` logo from a CIMD document, else null (a generic icon is shown). */
    logo: string | null;
  };
  scopes: string[];
  wantsWrite: boolean;
  pinnedCompanyId: string | null;
  organizations: ConsentOrganization[];
  expiresAt: string;
}

/** One of my assistant connections (Assistant connections pages). */
export interface AssistantConnection {
  id: string;
  name: string;
  companyId: string;
  companyName: string;
  clientName: string | null;
  clientId: string;
  /** True when the grant holds `paperclip:write`. */
  write: boolean;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}
