import type { IssueComment } from "../types";

/**
 * The assistant client a comment was written through (public MCP): `payload.via.clientName`,
 * set by the server for comments from an assistant connection; null for any other comment.
 */
export function viaClientOf(comment: Pick<IssueComment, "payload">): string | null {
  const via = comment.payload?.via;
  if (!via || typeof via !== "object") return null;
  const name = (via as { clientName?: unknown }).clientName;
  return typeof name === "string" && name.trim() ? name : "an assistant";
}

/** "via <client>" beside a person's name, for work done through an assistant connection. */
export function ViaClient({ clientName }: { clientName: string | null | undefined }) {
  if (!clientName) return null;
  return (
    <span className="text-zinc-500" data-testid="via-client" title="Through an assistant connection">
      via <bdi>{clientName}</bdi>
    </span>
  );
}

/** Who created an issue: "<person>" or "<person> via <client>"; null when no person did. */
export function CreatedBy({ name, viaClient }: { name?: string | null; viaClient?: string | null }) {
  if (!name) return null;
  return (
    <span data-testid="issue-created-by">
      {name} <ViaClient clientName={viaClient} />
    </span>
  );
}
