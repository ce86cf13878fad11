import type { Metadata } from "next";
import { ChangePasswordForm, type ChangePasswordState } from "@/components/account/ChangePasswordForm";
import { LinkedAccounts } from "@/components/account/LinkedAccounts";
import { QueryProvider } from "@/components/providers/QueryProvider";
import type { LinkedAccount } from "@/components/tools-access/types";
import { upstreamOAuthReturnOf } from "@/components/tools-access/upstream-auth";
import { PageHeader } from "@/components/ui/PageHeader";
import { ChangePasswordInput, changePassword } from "@/server/auth/account";
import { listCompanies } from "@/server/core/companies";
import { isServiceError } from "@/server/errors";
import { listLinkedAccounts } from "@/server/tools/upstream-authorization";
import { toClient } from "../_lib/serialize";
import { requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

/**
 * The signed-in person's account: password, a way to end every session (on /signout), and the
 * accounts they linked to connections that act as each person (issue 36).
 */
export default async function AccountPage(props: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await requireUserContext();
  const search = await props.searchParams;
  const [{ accounts }, companies] = await Promise.all([listLinkedAccounts(ctx), listCompanies(ctx)]);
  const param = (name: string) => (typeof search[name] === "string" ? search[name] : undefined);
  async function changePasswordAction(
    _s: ChangePasswordState,
    formData: FormData,
  ): Promise<ChangePasswordState> {
    "use server";
    const actionCtx = await requireUserContext();
    const parsed = ChangePasswordInput.safeParse({
      currentPassword: formData.get("currentPassword"),
      newPassword: formData.get("newPassword"),
    });
    if (!parsed.success) return { error: "The new password needs at least 12 characters." };
    try {
      const r = await changePassword(actionCtx, parsed.data);
      return {
        notice: `Password changed. ${r.otherSessionsEnded} other session${r.otherSessionsEnded === 1 ? "" : "s"} ended.`,
      };
    } catch (err) {
      if (isServiceError(err)) return { error: err.message };
      throw err;
    }
  }
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <PageHeader
        title="Account"
        description={
          <>
            Signed in as {ctx.actor.email}.{" "}
            <a className="underline" href="/">
              Back to Paperclip
            </a>{" "}
            ·{" "}
            <a className="underline" href="/signout">
              Sign out (or sign out everywhere)
            </a>
          </>
        }
      />
      <ChangePasswordForm action={changePasswordAction} />
      <QueryProvider>
        <LinkedAccounts
          initialAccounts={toClient<LinkedAccount[]>(accounts)}
          companyNames={Object.fromEntries(companies.map((c) => [c.id, c.name]))}
          // Where the upstream OAuth callback sends the browser back after linking.
          oauthReturn={upstreamOAuthReturnOf({
            upstream_oauth: param("upstream_oauth"),
            upstream_oauth_error: param("upstream_oauth_error"),
          })}
        />
      </QueryProvider>
    </main>
  );
}
