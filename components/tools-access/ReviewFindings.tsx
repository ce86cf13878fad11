import { CATALOG_FIELD_LABELS, CATALOG_FINDING_LABELS, codeLabel } from "../labels";
import { Alert } from "../ui/Alert";
import { CodeLabel } from "../ui/CodeLabel";
import type { CatalogFinding } from "./types";

/**
 * The server's warnings about a catalog tool (server/catalog/review-findings.ts): prompt
 * injection in its metadata, or a read-only claim beside a write or destructive class. The
 * browser only shows what the server found.
 */
export function ReviewFindings({
  findings,
  className,
}: {
  findings: readonly CatalogFinding[];
  className?: string;
}) {
  if (findings.length === 0) return null;
  const claims = findings.filter((f) => f.kind === "read_only_claim");
  const content = findings.filter((f) => f.kind !== "read_only_claim");
  return (
    <div className={className} data-testid="review-findings">
      {content.length > 0 ? (
        <Alert
          tone="danger"
          title="This tool's metadata looks like an attack on the agent"
          data-testid="review-findings-injection"
        >
          <p>
            Agents read a tool's title, description and schema. This text tries to instruct them; approve only
            if you trust the tool server.
          </p>
          <FindingList findings={content} />
        </Alert>
      ) : null}
      {claims.length > 0 ? (
        <Alert
          tone="warning"
          title="The server says read-only, but the risk class says otherwise"
          className={content.length > 0 ? "mt-2" : undefined}
          data-testid="review-findings-read-only"
        >
          <FindingList findings={claims} />
        </Alert>
      ) : null}
    </div>
  );
}

function FindingList({ findings }: { findings: readonly CatalogFinding[] }) {
  return (
    <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs">
      {findings.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: findings are a fixed list from the server
        <li key={i} data-testid="review-finding" data-kind={f.kind}>
          <CodeLabel
            label={codeLabel(CATALOG_FINDING_LABELS, f.kind)}
            code={f.kind}
            className="font-medium"
          />{" "}
          in {codeLabel(CATALOG_FIELD_LABELS, f.field)}: <span className="break-words">{f.detail}</span>
        </li>
      ))}
    </ul>
  );
}
