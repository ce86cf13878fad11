"use client";

import "./globals.css";
import { Button } from "@/components/ui/Button";

// Replaces the root layout when rendering it failed. Next.js's built-in version renders inline
// styles, which the page CSP refuses (docs/security.md, "Browser hardening"); this one uses the
// app's stylesheet. The error itself is in the server log under its digest.
export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="en">
      <body>
        <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4">
          <div className="w-full max-w-sm space-y-4 rounded-lg border border-zinc-200 bg-white px-6 py-8">
            <h1 className="text-xl font-semibold text-zinc-900">Something went wrong</h1>
            <p className="text-sm text-zinc-600">
              The page could not be shown.{error.digest ? ` Reference: ${error.digest}.` : ""}
            </p>
            <Button onClick={reset}>Try again</Button>
          </div>
        </main>
      </body>
    </html>
  );
}
