import { sessionSetCookie } from "@/server/auth/session-cookie";
import { SignInInput, signInWithPassword } from "@/server/auth/sign-in";
import { requestSource } from "@/server/config/proxy";
import { assertSameOrigin, route } from "@/server/http/route";

/**
 * Email + password sign-in for API clients (the sign-in page uses next-auth's server action,
 * which runs the same verb): 200 with a session cookie, 401 `invalid_credentials`, or 429
 * `sign_in_throttled` with Retry-After.
 */
export const POST = route({ actors: "public", body: SignInInput }, async ({ ctx, body, request }) => {
  // A forged cross-site sign-in would put the victim's browser into someone else's account.
  assertSameOrigin(request);
  const result = await signInWithPassword(ctx.db, body, {
    source: requestSource(request.headers),
    userAgent: request.headers.get("user-agent"),
    now: ctx.now(),
    requestId: ctx.requestId,
  });
  return Response.json(
    { user: result.user, expiresAt: result.expiresAt.toISOString() },
    {
      headers: {
        "set-cookie": await sessionSetCookie(request, {
          ...result.user,
          userId: result.user.id,
          sid: result.sid,
        }),
        "cache-control": "no-store",
        "x-request-id": ctx.requestId,
      },
    },
  );
});
