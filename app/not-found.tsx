import type { Metadata } from "next";
import Link from "next/link";
import { buttonStyles } from "@/components/ui/Button";
import { Card, CardBody } from "@/components/ui/Card";

export const metadata: Metadata = { title: "Not found" };

// The app's own 404 page. (Next.js's built-in one renders inline styles, which the page CSP
// refuses: docs/security.md, "Browser hardening".)
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <Card className="w-full max-w-sm">
        <CardBody className="space-y-4 px-6 py-8">
          <h1 className="text-xl font-semibold text-zinc-900">Page not found</h1>
          <p className="text-sm text-zinc-600">This page does not exist, or you do not have access to it.</p>
          <Link href="/" className={buttonStyles({ variant: "secondary" })} data-testid="not-found-home">
            Go to Paperclip
          </Link>
        </CardBody>
      </Card>
    </main>
  );
}
