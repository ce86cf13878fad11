import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ConfigFormState } from "@/components/config/form-state";
import type { ServiceContext } from "@/server/context";
import { isServiceError } from "@/server/errors";
import { requireUserContext } from "./session";

/** A form field as text ("" when absent). */
export const field = (formData: FormData, name: string): string => String(formData.get(name) ?? "");

/** A form field as optional text: trimmed, null when empty. */
export const optionalField = (formData: FormData, name: string): string | null =>
  field(formData, name).trim() || null;

/**
 * Runs one configuration form's verb as the signed-in person and answers the form: the
 * handler's notice (and the page re-rendered), or the verb's own refusal message. The verbs
 * check the capability; this only translates their answer.
 */
export async function runConfigForm(
  path: string,
  formData: FormData,
  handlers: Record<string, (ctx: ServiceContext, formData: FormData) => Promise<string>>,
): Promise<ConfigFormState> {
  const ctx = await requireUserContext();
  const handler = handlers[field(formData, "intent")];
  if (!handler) return { error: "unknown action" };
  try {
    const notice = await handler(ctx, formData);
    revalidatePath(path);
    return { notice };
  } catch (err) {
    if (isServiceError(err)) return { error: err.message };
    if (err instanceof z.ZodError) {
      const issue = err.issues[0];
      return { error: `check ${issue?.path.join(".") || "the form"}: ${issue?.message ?? "invalid"}` };
    }
    throw err;
  }
}

/** `baseRevision` of a file form: a number, or null for a new file. */
export const baseRevisionOf = (formData: FormData): number | null => {
  const raw = field(formData, "baseRevision");
  return raw === "" ? null : Number(raw);
};
