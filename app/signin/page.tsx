import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { auth, signIn } from "@/auth";
import { SignInForm } from "@/components/auth/SignInForm";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site relative paths are followed after sign-in (no open redirect). */
function safeNext(next: string | undefined): string {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string; email?: string }>;
}) {
  const params = await searchParams;
  const next = safeNext(params.next);
  if ((await auth())?.user) redirect(next);

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
        redirect(`/signin?error=invalid&email=${encodeURIComponent(email)}&next=${encodeURIComponent(next)}`);
      }
      throw err; // the redirect after a successful sign-in is thrown too
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <SignInForm
        action={signInAction}
        error={params.error ? "Email or password is incorrect." : null}
        defaultEmail={params.email}
      />
    </main>
  );
}
