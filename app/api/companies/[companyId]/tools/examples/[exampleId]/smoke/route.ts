import { z } from "zod";
import { runExampleSmoke, SmokeInput } from "@/server/examples/smoke";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

const Params = CompanyParams.extend({ exampleId: z.string().regex(/^[a-z][a-z0-9-]{0,47}$/) });

export const POST = route({ actors: ["board"], params: Params, body: SmokeInput }, ({ ctx, params, body }) =>
  runExampleSmoke(ctx, params.companyId, params.exampleId, body),
);
