import type { Metadata } from "next";
import { ConnectionsManager } from "@/components/tools-access/ConnectionsManager";
import type { Connection } from "@/components/tools-access/types";
import { upstreamOAuthReturnOf } from "@/components/tools-access/upstream-auth";
import { isInstanceAdmin } from "@/server/instance/admins";
import { listApplications } from "@/server/tools/applications";
import { listConnections } from "@/server/tools/connections";
import { companyPage, stringParam, uuidParam } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Connections · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId, search }) => {
    const applicationId = uuidParam(search, "applicationId");
    const [connections, applications, instanceAdmin] = await Promise.all([
      listConnections(ctx, companyId, { applicationId }),
      listApplications(ctx, companyId),
      ctx.actor.type === "user" ? isInstanceAdmin(ctx.db, ctx.actor.userId) : false,
    ]);
    return (
      <ConnectionsManager
        companyId={companyId}
        canEdit={can("tools:manage_connections")}
        initialConnections={toClient<Connection[]>(connections)}
        applications={applications
          .filter((a) => a.status === "active")
          .map((a) => ({
            id: a.id,
            name: a.name,
            slug: a.slug,
            type: a.type as Connection["application"]["type"],
          }))}
        applicationId={applicationId}
        selectedId={uuidParam(search, "connection")}
        secretsHref={`/c/${companyId}/settings/tools/secrets`}
        // A private or loopback upstream is allowed under Instance settings (issue 21, item 14).
        instanceSettingsHref={instanceAdmin ? `/c/${companyId}/settings/instance` : null}
        // Where the upstream OAuth callback sends the browser back (docs/upstream-oauth.md).
        oauthReturn={upstreamOAuthReturnOf({
          upstream_oauth: stringParam(search, "upstream_oauth"),
          upstream_oauth_error: stringParam(search, "upstream_oauth_error"),
        })}
      />
    );
  },
  { query: true },
);
