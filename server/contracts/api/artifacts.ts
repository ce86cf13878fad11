// Responses of the console's artifact view (`GET /tools/invocations/:id/artifacts[/:artifactId]`,
// server/tools/invocation-artifacts.ts): a result over the bound, stored in full until it expires.
import { z } from "zod";
import { IsoDate } from "./common";

export const InvocationArtifact = z.object({
  id: z.string(),
  invocationId: z.string(),
  /** e.g. "application/json" */
  contentType: z.string(),
  /** Bytes of the stored (guarded, redacted) content. */
  bytes: z.number(),
  sha256: z.string(),
  createdAt: IsoDate,
  expiresAt: IsoDate,
});

/** `GET …/artifacts`: the invocation's artifacts that have not expired, oldest first. */
export const InvocationArtifactsResponse = z.object({ artifacts: z.array(InvocationArtifact) });

/** `GET …/artifacts/:artifactId`: one artifact with its whole content (a sensitive read, logged). */
export const InvocationArtifactContent = InvocationArtifact.extend({ content: z.string() });
