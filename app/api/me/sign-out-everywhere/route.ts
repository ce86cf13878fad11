import { signOutEverywhere } from "@/server/auth/account";
import { route } from "@/server/http/route";

/** Ends every browser session of the signed-in user, this one included. */
export const POST = route({ actors: ["board"] }, ({ ctx }) => signOutEverywhere(ctx));
