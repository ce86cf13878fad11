import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { TestPolicyInput, testPolicyDecision } from "@/server/tools/policies";

// Evaluates a hypothetical call; executes and records nothing.
export const POST = route(
  { actors: ["board"], params: CompanyParams, body: TestPolicyInput },
  ({ ctx, params, body }) => testPolicyDecision(ctx, params.companyId, body),
);
