"use client";

import Link from "next/link";
import { Button, buttonStyles } from "@/components/ui/Button";
import { Card, CardBody } from "@/components/ui/Card";

// The app's own error page for a page that failed to render (inside the root layout; the
// root layout's own failure is global-error.tsx). The error's details stay in the server log,
// found by the digest shown here.
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
      <Card className="w-full max-w-sm">
        <CardBody className="space-y-4 px-6 py-8">
          <h1 className="text-xl font-semibold text-zinc-900">Something went wrong</h1>
          <p className="text-sm text-zinc-600" data-testid="error-page">
            This page could not be shown. Try again, or go back to Paperclip.
            {error.digest ? ` Reference: ${error.digest}.` : ""}
          </p>
          <div className="flex gap-2">
            <Button onClick={reset}>Try again</Button>
            <Link href="/" className={buttonStyles({ variant: "secondary" })} data-testid="error-home">
              Go to Paperclip
            </Link>
          </div>
        </CardBody>
      </Card>
    </main>
  );
}
