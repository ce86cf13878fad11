import type { Metadata } from "next";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { type MemberActionState, MembersManager } from "@/components/members/MembersManager";
import { PageHeader } from "@/components/ui/PageHeader";
import { configuredPublicOrigin, requestHost } from "@/server/config/proxy";
import {
  AddMemberInput,
  addMember,
  ChangeMemberRoleInput,
  changeMemberRole,
  listMembers,
  removeMember,
} from "@/server/core/members";
import { isServiceError } from "@/server/errors";
import { companyPage } from "../../../../_lib/company-page";
import { iso, requireUserContext } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Members" };
export const dynamic = "force-dynamic";

/** Company Settings › Members. Everyone in the company sees it; owners change it. */
export default companyPage(async ({ ctx, company, can, companyId }) => {
  const members = await listMembers(ctx, companyId);

  async function memberAction(_state: MemberActionState, formData: FormData): Promise<MemberActionState> {
    "use server";
    const actionCtx = await requireUserContext();
    const intent = String(formData.get("intent") ?? "");
    const userId = String(formData.get("userId") ?? "");
    try {
      if (intent === "add") {
        const input = AddMemberInput.parse({ email: formData.get("email"), role: formData.get("role") });
        const added = await addMember(actionCtx, companyId, input);
        revalidatePath(`/c/${companyId}/settings/members`);
        if (!added.setPasswordPath) return { notice: `${input.email} was added as ${input.role}.` };
        // The link is built from the origin the owner is using right now.
        const h = await headers();
        const proto = h.get("x-forwarded-proto") === "https" ? "https" : "http";
        const origin = configuredPublicOrigin() ?? `${proto}://${requestHost(h) ?? "localhost"}`;
        return {
          notice: `${input.email} was added as ${input.role}.`,
          link: {
            email: input.email,
            url: `${origin}${added.setPasswordPath}`,
            expiresAt: added.setPasswordExpiresAt!,
          },
        };
      }
      if (intent === "role") {
        const input = ChangeMemberRoleInput.parse({ role: formData.get("role") });
        await changeMemberRole(actionCtx, companyId, userId, input);
        revalidatePath(`/c/${companyId}/settings/members`);
        return { notice: `Role changed to ${input.role}.` };
      }
      if (intent === "remove") {
        await removeMember(actionCtx, companyId, userId);
        revalidatePath(`/c/${companyId}/settings/members`);
        return { notice: "Member removed. Their board keys stopped working." };
      }
      return { error: "unknown action" };
    } catch (err) {
      if (isServiceError(err)) return { error: err.message };
      if (err instanceof Error && err.name === "ZodError") return { error: "check the email and the role" };
      throw err;
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description={`The people of ${company.name} and their roles. Board keys act with at most their creator's current role.`}
      />
      <MembersManager
        members={members.map((m) => ({ ...m, joinedAt: iso(m.joinedAt)! }))}
        canManage={can("members:manage")}
        currentUserId={ctx.actor.userId}
        action={memberAction}
      />
    </div>
  );
});
