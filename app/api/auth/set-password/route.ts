import { redeemPasswordLink, SetPasswordInput } from "@/server/auth/account";
import { assertSameOrigin, route } from "@/server/http/route";

/** Redeems a one-time set-password link (public: the token is the credential). */
export const POST = route({ actors: "public", body: SetPasswordInput }, ({ ctx, body, request }) => {
  assertSameOrigin(request);
  return redeemPasswordLink(ctx, body);
});
