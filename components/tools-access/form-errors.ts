/**
 * Glue between the API's errors, zod and react-hook-form: field-level messages in, field-level
 * messages out. No React state here beyond the one hook.
 */
import "../zod-config";
import { useEffect } from "react";
import type { FieldErrors, FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { isApiError } from "./api";

/** Field → message, with nested fields dotted (`args.0.path`), as the forms show them. */
export type FieldMessages = Record<string, string>;

/** React-hook-form's nested errors flattened to `FieldMessages`. */
export function flattenFieldErrors(errors: FieldErrors | undefined, prefix = ""): FieldMessages {
  const out: FieldMessages = {};
  if (!errors) return out;
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== "object" || key === "ref") continue;
    const name = prefix ? `${prefix}.${key}` : key;
    const message = (value as { message?: unknown }).message;
    if (typeof message === "string" && message) out[name] = message;
    else Object.assign(out, flattenFieldErrors(value as FieldErrors, name));
  }
  return out;
}

/** Adds `messages` (dotted field names) as issues of a zod refinement. */
export function addFieldIssues(ctx: z.RefinementCtx, messages: FieldMessages) {
  for (const [field, message] of Object.entries(messages)) {
    ctx.addIssue({
      code: "custom",
      path: field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message,
    });
  }
}

/** API path prefix → form field, or a function doing that lookup. */
export type FieldMap = Record<string, string> | ((path: string) => string | undefined);

/**
 * The fields an API error names: validation issues (`details.issues[].path`, dotted), credential
 * findings (`details.findings[].path`, a JSON pointer) and unique constraints
 * (`details.constraint` containing the field's column). `fields` maps an API path prefix to the
 * form's field; the longest prefix wins. `taken` gives the message for a unique violation.
 */
export function serverFieldErrors(
  error: unknown,
  fields: FieldMap,
  taken: Record<string, string> = {},
): FieldMessages {
  if (!isApiError(error)) return {};
  const out: FieldMessages = {};
  const fieldOf = (path: string): string | undefined => {
    if (typeof fields === "function") return fields(path);
    let best: string | undefined;
    for (const prefix of Object.keys(fields)) {
      if ((path === prefix || path.startsWith(`${prefix}.`)) && (!best || prefix.length > best.length))
        best = prefix;
    }
    return best === undefined ? undefined : fields[best];
  };
  const put = (path: string, message: string) => {
    const field = fieldOf(path);
    if (field && !out[field]) out[field] = message;
  };
  for (const issue of error.issues) put(issue.path, capitalize(issue.message));
  const findings = error.details?.findings;
  if (Array.isArray(findings)) {
    for (const f of findings) {
      const pointer = (f as { path?: unknown })?.path;
      if (typeof pointer === "string")
        put(pointer.replace(/^\//, "").split("/").join("."), capitalize(error.message));
    }
  }
  const constraint = error.details?.constraint;
  if (error.status === 409 && typeof constraint === "string") {
    for (const [column, message] of Object.entries(taken)) {
      if (constraint.includes(column)) put(column, message);
    }
  }
  // A message that names one field in backticks (`transportConfig.url`), when nothing else did.
  if (Object.keys(out).length === 0) {
    for (const [, named] of error.message.matchAll(/`([A-Za-z][\w.]*)`/g)) {
      if (named && fieldOf(named)) put(named, capitalize(error.message));
    }
  }
  return out;
}

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** Shows the fields a server error names on the form (once per error). */
export function useServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: FieldMap,
  taken?: Record<string, string>,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the maps are constants of the form
  useEffect(() => {
    const messages = serverFieldErrors(error, fields, taken);
    for (const [field, message] of Object.entries(messages))
      setError(field as Path<T>, { type: "server", message });
  }, [error, setError]);
}
