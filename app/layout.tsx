import type { Metadata } from "next";
import { connection } from "next/server";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paperclip", template: "%s · Paperclip" },
  description: "Tools & Access: the governed layer between AI agents and the tools they use.",
  icons: { icon: "/paperclip.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: the CSP nonce (proxy.ts) differs per response, and a
  // page prerendered at build time would carry scripts without it, which the policy blocks.
  await connection();
  return (
    <html lang="en">
      <body>
        {/* URL state (selection, filters) lives in search params so every view can be shared. */}
        <NuqsAdapter>{children}</NuqsAdapter>
      </body>
    </html>
  );
}
