import type { Metadata } from "next";
import { ChangePasswordForm, type ChangePasswordState } from "@/components/account/ChangePasswordForm";
import { PageHeader } from "@/components/ui/PageHeader";
import { ChangePasswordInput, changePassword } from "@/server/auth/account";
import { isServiceError } from "@/server/errors";
import { requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

/** The signed-in person's account: password, and a way to end every session (on /signout). */
export default async function AccountPage() {
  const ctx = await requireUserContext();
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
    </main>
  );
}
