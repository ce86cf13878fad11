import type { AccessContext } from "../access/types";

/**
 * The context of an attempt by `agentId` outside any run, issue, project or routine, in a
 * valid session: what the ledger tests and the rate-limit worker record attempts under.
 */
export const agentOnlyContext = (companyId: string, agentId: string) =>
  ({
    companyId,
    agentId,
    runId: null,
    issueId: null,
    projectId: null,
    routineId: null,
    sessionValid: true,
  }) satisfies AccessContext;
