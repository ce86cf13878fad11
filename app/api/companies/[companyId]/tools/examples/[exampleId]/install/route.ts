import { z } from "zod";
import { installExample } from "@/server/examples/examples";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

const Params = CompanyParams.extend({ exampleId: z.string().regex(/^[a-z][a-z0-9-]{0,47}$/) });

export const POST = route({ actors: ["board"], params: Params, status: 201 }, ({ ctx, params }) =>
  installExample(ctx, params.companyId, params.exampleId),
);
