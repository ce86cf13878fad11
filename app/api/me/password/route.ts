import { ChangePasswordInput, changePassword } from "@/server/auth/account";
import { route } from "@/server/http/route";

/** Changes the signed-in user's password; their other sessions end. */
export const POST = route({ actors: ["board"], body: ChangePasswordInput }, ({ ctx, body }) =>
  changePassword(ctx, body),
);
