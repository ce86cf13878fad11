import { CreateCompanyInput, createCompany, listCompanies } from "@/server/core/companies";
import { route } from "@/server/http/route";

export const POST = route({ actors: ["board"], body: CreateCompanyInput, status: 201 }, ({ ctx, body }) =>
  createCompany(ctx, body),
);

export const GET = route({ actors: ["board"] }, async ({ ctx }) => ({ companies: await listCompanies(ctx) }));
