import { CreateRoutineInput, createRoutine, listRoutines } from "@/server/core/projects";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateRoutineInput, status: 201 },
  ({ ctx, params, body }) => createRoutine(ctx, params.companyId, body),
);

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  routines: await listRoutines(ctx, params.companyId),
}));
