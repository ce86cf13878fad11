import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paperclip", template: "%s · Paperclip" },
  description: "Tools & Access: the governed layer between AI agents and the tools they use.",
  icons: { icon: "/paperclip.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
