import type { ReactNode } from "react";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import { diffLines, diffToolVersions, type FieldChange, type ToolVersion } from "./catalog-diff";
import { LongText } from "./LongText";
import { ReviewFindings } from "./ReviewFindings";
import type { CatalogFinding } from "./types";

export interface CatalogDiffProps {
  /** The last approved version of the tool; `null` when it was never reviewed. */
  reviewed: ToolVersion | null;
  /** The version the upstream lists now. */
  current: ToolVersion;
  /** The server's warnings about the current version (server/catalog/review-findings.ts). */
  findings?: readonly CatalogFinding[];
  className?: string;
}

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  title: "Title",
  description: "Description",
  inputSchema: "Input schema",
};

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return String(value);
  }
}

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-zinc-500 italic">not set</span>;
  return (
    <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-900">{toJson(value)}</code>
  );
}

function TextDiff({ before, after }: { before: unknown; after: unknown }) {
  if (typeof before !== "string" || typeof after !== "string") {
    return (
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Value value={before} />
        <span aria-hidden="true">→</span>
        <span className="sr-only">becomes</span>
        <Value value={after} />
      </p>
    );
  }
  return <LineDiff before={before} after={after} />;
}

/**
 * Old and new text side by side, line by line: a removed line is red on the left, an added one
 * green on the right, unchanged lines on both. Each column is a bounded scroll box and a long
 * line shows its first 2,000 characters until asked.
 */
function LineDiff({ before, after }: { before: string; after: string }) {
  const rows = diffLines(before, after);
  const column = (side: "before" | "after") =>
    rows.flatMap((row, i) => {
      if (row.kind === (side === "before" ? "added" : "removed")) return [];
      const changed = row.kind !== "same";
      return [
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed sequence
          key={i}
          className={cn(
            "rounded-sm px-1.5 py-0.5",
            changed && side === "before" && "bg-red-50 text-red-900",
            changed && side === "after" && "bg-emerald-50 text-emerald-900",
          )}
          data-testid="catalog-diff-line"
          data-kind={row.kind}
        >
          {changed ? <span className="sr-only">{side === "before" ? "removed: " : "added: "}</span> : null}
          {row.text === "" ? "\u00a0" : <LongText text={row.text} testId="catalog-diff-line-text" />}
        </div>,
      ];
    });
  return (
    <div className="grid gap-2 lg:grid-cols-2" data-testid="catalog-diff-text">
      {(["before", "after"] as const).map((side) => (
        <div key={side} className="min-w-0">
          <p className="text-xs font-medium text-zinc-600">{side === "before" ? "Reviewed" : "Current"}</p>
          <section
            className="mt-1 max-h-96 overflow-auto rounded border border-zinc-200 bg-white p-1"
            aria-label={side === "before" ? "Reviewed text" : "Current text"}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard
            tabIndex={0}
            data-testid={`catalog-diff-text-${side}`}
          >
            {column(side)}
          </section>
        </div>
      ))}
    </div>
  );
}

function PointerList({
  label,
  pointers,
  tone,
  kind,
}: {
  label: string;
  pointers: string[];
  tone: string;
  kind: string;
}) {
  if (pointers.length === 0) return null;
  return (
    <div data-testid={`catalog-diff-schema-${kind}`}>
      <p className="text-xs font-medium text-zinc-600">{label}</p>
      <ul className="mt-1 flex flex-wrap gap-1.5">
        {pointers.map((ptr) => (
          <li key={ptr}>
            <code className={cn("rounded px-1.5 py-0.5 font-mono text-xs", tone)}>
              {ptr === "" ? "(schema root)" : ptr}
            </code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A read-only or non-destructive claim appearing is the shape a rug pull takes. */
function annotationWarning(hint: string, after: unknown): string | null {
  if (hint === "readOnlyHint" && after === true) return "Now claims to be read-only.";
  if (hint === "destructiveHint" && after === false) return "Now claims not to be destructive.";
  return null;
}

function FieldBlock({ change, children }: { change: FieldChange; children: ReactNode }) {
  const hint = change.field.startsWith("annotations.") ? change.field.slice("annotations.".length) : null;
  return (
    <section
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3"
      data-testid="catalog-diff-field"
      data-field={change.field}
    >
      <h4 className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
        {hint ? (
          <>
            Annotation <code className="font-mono normal-case">{hint}</code>
          </>
        ) : (
          (FIELD_LABELS[change.field] ?? change.field)
        )}
      </h4>
      {children}
    </section>
  );
}

/**
 * What changed between the reviewed version of a catalog tool and the one the upstream lists now:
 * the server's warnings (injection, a false read-only claim), old and new text side by side line by
 * line, schema properties added / removed / changed (by JSON pointer, with the
 * two schemas side by side on demand) and annotation hints. Server-compatible.
 */
export function CatalogDiff({ reviewed, current, findings = [], className }: CatalogDiffProps) {
  const warnings = findings.length > 0 ? <ReviewFindings findings={findings} /> : null;
  if (reviewed === null) {
    return (
      <div className={cn("space-y-3", className)} data-testid="catalog-diff" data-state="new">
        {warnings}
        <div className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-medium">New tool — never reviewed</p>
          <p className="mt-0.5 text-xs text-amber-800">
            There is no approved version to compare against: review its description, schema and annotations as
            a whole.
          </p>
        </div>
        {current.description ? (
          <LongText text={current.description} testId="catalog-diff-description" />
        ) : null}
      </div>
    );
  }

  const diff = diffToolVersions(reviewed, current);
  if (!diff.changed) {
    return (
      <div className={cn("space-y-3", className)} data-testid="catalog-diff" data-state="unchanged">
        {warnings}
        <p className="rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-700">
          No difference from the reviewed version.
        </p>
      </div>
    );
  }

  return (
    <div className={cn("space-y-3", className)} data-testid="catalog-diff" data-state="changed">
      {warnings}
      {diff.fields.map((change) => {
        if (change.field === "inputSchema") {
          const { added, removed, changed } = diff.schema;
          const none = added.length + removed.length + changed.length === 0;
          return (
            <FieldBlock key={change.field} change={change}>
              {none ? <p className="text-sm text-zinc-600">The schema changed in form only.</p> : null}
              <PointerList
                label="Added"
                kind="added"
                pointers={added}
                tone="bg-emerald-100 text-emerald-900"
              />
              <PointerList label="Removed" kind="removed" pointers={removed} tone="bg-red-100 text-red-900" />
              <PointerList
                label="Changed"
                kind="changed"
                pointers={changed}
                tone="bg-amber-100 text-amber-900"
              />
              <details className="text-xs">
                <summary className={cn("cursor-pointer rounded text-accent-700 hover:underline", focusRing)}>
                  Old and new schema side by side
                  <span className="sr-only"> of {current.name}</span>
                </summary>
                <div className="mt-2 grid gap-2 lg:grid-cols-2">
                  <CodeBlock
                    code={toJson(change.before)}
                    language="json"
                    title="Reviewed schema"
                    data-testid="catalog-diff-schema-before"
                  />
                  <CodeBlock
                    code={toJson(change.after)}
                    language="json"
                    title="Current schema"
                    data-testid="catalog-diff-schema-after"
                  />
                </div>
              </details>
            </FieldBlock>
          );
        }
        if (change.field.startsWith("annotations.")) {
          const warning = annotationWarning(change.field.slice("annotations.".length), change.after);
          return (
            <FieldBlock key={change.field} change={change}>
              <TextDiff before={change.before} after={change.after} />
              {warning ? <p className="text-xs font-medium text-red-800">{warning}</p> : null}
            </FieldBlock>
          );
        }
        return (
          <FieldBlock key={change.field} change={change}>
            <TextDiff before={change.before} after={change.after} />
          </FieldBlock>
        );
      })}
    </div>
  );
}
