import type { Metadata } from "next";
import { signOut } from "@/auth";
import { Button } from "@/components/ui/Button";
import { Card, CardBody } from "@/components/ui/Card";

export const metadata: Metadata = { title: "Sign out" };

export default function SignOutPage() {
  async function signOutAction() {
    "use server";
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
        </CardBody>
      </Card>
    </main>
  );
}
