import { route } from "@/server/http/route";
import { listLinkedAccounts } from "@/server/tools/upstream-authorization";

/** The caller's accounts linked to connections that act as each person (`oauth_user`). */
export const GET = route({ actors: ["board"] }, ({ ctx }) => listLinkedAccounts(ctx));
