import { z } from "zod";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { CreateConnectionInput, createConnection, listConnections } from "@/server/tools/connections";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: z.object({ applicationId: z.uuid().optional() }) },
  async ({ ctx, params, query }) => ({ connections: await listConnections(ctx, params.companyId, query) }),
);

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateConnectionInput, status: 201 },
  ({ ctx, params, body }) => createConnection(ctx, params.companyId, body),
);
