import { type NextRequest, NextResponse } from "next/server";
import { newNonce, pageSecurityHeaders } from "@/server/http/security-headers";

// Every page response gets a fresh CSP nonce (server/http/security-headers.ts). Next.js reads
// the nonce from the request's Content-Security-Policy header and puts it on its scripts, so
// the policy is set on the request as well as on the response.
// The request path is passed to server components too (layouts do not receive it), so the
// shell can highlight the active section and sign-in can return the user where they were going.
export function proxy(request: NextRequest) {
  // `/mcp/setup` with `Accept: text/markdown` serves the same instructions as `/mcp/setup.md`.
  if (
    request.nextUrl.pathname === "/mcp/setup" &&
    /\btext\/markdown\b/i.test(request.headers.get("accept") ?? "")
  ) {
    const url = request.nextUrl.clone();
    url.pathname = "/mcp/setup.md";
    return NextResponse.rewrite(url);
  }
  const nonce = newNonce();
  const security = pageSecurityHeaders({ nonce, dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-pathname", request.nextUrl.pathname);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", security["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [key, value] of Object.entries(security)) response.headers.set(key, value);
  return response;
}

// Not `/mcp/files/*` either: Next.js buffers the body of every request the proxy sees (and cuts
// it at 10 MB), while the file URLs stream theirs with the attachment limit (docs/public-mcp.md).
export const config = { matcher: ["/((?!api|mcp/files|_next/static|_next/image|favicon.ico).*)"] };
