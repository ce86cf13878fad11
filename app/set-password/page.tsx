import type { Metadata } from "next";
import { SetPasswordForm } from "@/components/account/SetPasswordForm";

export const metadata: Metadata = { title: "Set your password", referrer: "no-referrer" };

/** Where a one-time set-password link leads (the token is in the fragment, read by the form). */
export default function SetPasswordPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <SetPasswordForm />
    </main>
  );
}
