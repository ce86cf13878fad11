import type { Metadata } from "next";
import { NotFoundPanel } from "@/components/shell/NotFound";

export const metadata: Metadata = { title: "Not found" };

// The app's own 404 page. (Next.js's built-in one renders inline styles, which the page CSP
// refuses: docs/security.md, "Browser hardening".) "/" leads a signed-in person to their
// company, anyone else to sign-in.
export default function NotFound() {
  return <NotFoundPanel fullPage homeHref="/" homeLabel="Go to Paperclip" />;
}
