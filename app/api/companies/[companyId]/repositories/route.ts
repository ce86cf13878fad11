import { CreateRepositoryInput, createRepository, listRepositories } from "@/server/core/repositories";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  repositories: await listRepositories(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateRepositoryInput, status: 201 },
  ({ ctx, params, body }) => createRepository(ctx, params.companyId, body),
);
