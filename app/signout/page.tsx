import type { Metadata } from "next";
import { signOut } from "@/auth";
import { Button } from "@/components/ui/Button";
import { Card, CardBody } from "@/components/ui/Card";
import { signOutEverywhere } from "@/server/auth/account";
import { currentUser, requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Sign out" };
export const dynamic = "force-dynamic";

export default async function SignOutPage() {
  const signedIn = Boolean(await currentUser());
  // next-auth's signOut event deletes this session's row (auth.ts), so a copied cookie dies too.
  async function signOutAction() {
    "use server";
    await signOut({ redirectTo: "/signin" });
  }
  async function signOutEverywhereAction() {
    "use server";
    const ctx = await requireUserContext();
    await signOutEverywhere(ctx);
    await signOut({ redirectTo: "/signin" });
  }
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <Card className="w-full max-w-sm">
        <CardBody className="space-y-4 px-6 py-8">
          <h1 className="text-xl font-semibold text-zinc-900">Sign out of Paperclip?</h1>
          <form action={signOutAction}>
            <Button type="submit" data-testid="signout-confirm">
              Sign out
            </Button>
          </form>
          {signedIn ? (
            <form action={signOutEverywhereAction} className="space-y-2 border-t border-zinc-200 pt-4">
              <p className="text-sm text-zinc-600">
                Ends every session of your account, on every browser and device.
              </p>
              <Button type="submit" variant="secondary" data-testid="signout-everywhere">
                Sign out everywhere
              </Button>
            </form>
          ) : null}
        </CardBody>
      </Card>
    </main>
  );
}
