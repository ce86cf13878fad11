import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/auth";
import { SignInForm } from "@/components/auth/SignInForm";
import { getDb } from "@/db/client";
import { signInRetryAfterMs } from "@/server/auth/sign-in";
import { requestSource } from "@/server/config/proxy";
import { currentUser } from "../_lib/session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site relative paths are followed after sign-in (no open redirect). */
function safeNext(next: string | undefined): string {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

async function throttledMessage(email: string | undefined): Promise<string> {
  const ms = email ? await signInRetryAfterMs(getDb(), email, requestSource(await headers()), new Date()) : 0;
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string; email?: string; password_set?: string }>;
}) {
  const params = await searchParams;
  const next = safeNext(params.next);
  // The session row decides, not the JWT alone: a signed-out cookie must not bounce back.
  if (await currentUser()) redirect(next);

  async function signInAction(formData: FormData) {
    "use server";
    const email = String(formData.get("email") ?? "");
    try {
      await signIn("credentials", {
        email,
        password: String(formData.get("password") ?? ""),
        redirectTo: next,
      });
    } catch (err) {
      if (err instanceof AuthError) {
        const code = err instanceof CredentialsSignin && err.code === "throttled" ? "throttled" : "invalid";
        redirect(`/signin?error=${code}&email=${encodeURIComponent(email)}&next=${encodeURIComponent(next)}`);
      }
      throw err; // the redirect after a successful sign-in is thrown too
    }
  }

  const error =
    params.error === "throttled"
      ? await throttledMessage(params.email)
      : params.error
        ? "Email or password is incorrect."
        : null;
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <SignInForm
        action={signInAction}
        error={error}
        defaultEmail={params.email}
        notice={params.password_set ? "Your password is set. Sign in with it." : null}
      />
    </main>
  );
}
