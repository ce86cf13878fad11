import { type NextRequest, NextResponse } from "next/server";

// Passes the request path to server components (layouts do not receive it), so the shell can
// highlight the active section and sign-in can return the user where they were going.
export function proxy(request: NextRequest) {
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-pathname", request.nextUrl.pathname);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

export const config = { matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"] };
