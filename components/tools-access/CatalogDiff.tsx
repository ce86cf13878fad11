import type { ReactNode } from "react";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import {
  type DiffPart,
  diffToolVersions,
  diffWords,
  type FieldChange,
  type ToolVersion,
} from "./catalog-diff";

export interface CatalogDiffProps {
  /** The last approved version of the tool; `null` when it was never reviewed. */
  reviewed: ToolVersion | null;
  /** The version the upstream lists now. */
  current: ToolVersion;
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
  const parts: DiffPart[] = diffWords(before, after);
  return (
    <p className="max-w-prose text-sm leading-relaxed break-words whitespace-pre-wrap text-zinc-800">
      {parts.map((part, i) =>
        part.kind === "same" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are a fixed sequence
          <span key={i}>{part.text}</span>
        ) : part.kind === "removed" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are a fixed sequence
          <del key={i} className="rounded-sm bg-red-100 text-red-900 decoration-red-700/60">
            <span className="sr-only">[removed: </span>
            {part.text}
            <span className="sr-only">]</span>
          </del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are a fixed sequence
          <ins key={i} className="rounded-sm bg-emerald-100 text-emerald-900 no-underline">
            <span className="sr-only">[added: </span>
            {part.text}
            <span className="sr-only">]</span>
          </ins>
        ),
      )}
    </p>
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
 * word-level text diffs, schema properties added / removed / changed (by JSON pointer, with the
 * two schemas side by side on demand) and annotation hints. Server-compatible.
 */
export function CatalogDiff({ reviewed, current, className }: CatalogDiffProps) {
  if (reviewed === null) {
    return (
      <div
        className={cn(
          "rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900",
          className,
        )}
        data-testid="catalog-diff"
        data-state="new"
      >
        <p className="font-medium">New tool — never reviewed</p>
        <p className="mt-0.5 text-xs text-amber-800">
          There is no approved version to compare against: review its description, schema and annotations as a
          whole.
        </p>
      </div>
    );
  }

  const diff = diffToolVersions(reviewed, current);
  if (!diff.changed) {
    return (
      <div
        className={cn(
          "rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-700",
          className,
        )}
        data-testid="catalog-diff"
        data-state="unchanged"
      >
        No difference from the reviewed version.
      </div>
    );
  }

  return (
    <div className={cn("space-y-3", className)} data-testid="catalog-diff" data-state="changed">
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
