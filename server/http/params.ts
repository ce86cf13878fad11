import { z } from "zod";
import { DocumentKey } from "../core/documents";
import { uuidParam } from "./route";

// Path-parameter schemas shared by route handlers. A malformed id answers 404.
export const CompanyParams = z.object({ companyId: uuidParam });
export const AgentParams = z.object({ agentId: uuidParam });
export const IssueParams = z.object({ issueId: uuidParam });
export const RunParams = z.object({ runId: uuidParam });
export const ProfileParams = CompanyParams.extend({ profileId: uuidParam });
export const ProfileEntryParams = ProfileParams.extend({ entryId: uuidParam });
export const ProfileBindingParams = ProfileParams.extend({ bindingId: uuidParam });
export const PolicyParams = CompanyParams.extend({ policyId: uuidParam });
export const CompanyAgentParams = CompanyParams.extend({ agentId: uuidParam });
export const ApplicationParams = CompanyParams.extend({ applicationId: uuidParam });
export const ConnectionParams = CompanyParams.extend({ connectionId: uuidParam });
export const ActionRequestParams = CompanyParams.extend({ actionRequestId: uuidParam });
export const TrustRuleParams = CompanyParams.extend({ trustRuleId: uuidParam });
export const ApprovalParams = CompanyParams.extend({ approvalId: uuidParam });
export const InvocationParams = CompanyParams.extend({ invocationId: uuidParam });
export const IssueDocumentParams = IssueParams.extend({ key: DocumentKey });
export const IssueWorkProductParams = IssueParams.extend({ workProductId: uuidParam });
export const AttachmentParams = z.object({ attachmentId: uuidParam });
