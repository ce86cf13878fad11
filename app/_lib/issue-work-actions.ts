"use server";
// The issue page's work forms (components/issues/{StatusControls,DocumentsCard,
// DeliverablesCard}.tsx): each runs the same verb as the REST route as the signed-in person.
// The page binds `companyId` and `issueId`; the verbs check the person's role, so a changed
// binding changes nothing they may not do.
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { WorkActionState } from "@/components/issues/WorkActionForm";
import { WriteDocumentInput, writeDocument } from "@/server/core/documents";
import {
  BlockIssueInput,
  blockIssue,
  FinishIssueInput,
  finishIssue,
  UpdateIssueInput,
  updateIssue,
} from "@/server/core/issue-updates";
import { RegisterWorkProductInput, registerWorkProduct } from "@/server/core/work-products";
import { isServiceError } from "@/server/errors";
import { requireUserContext } from "./session";

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};
const optional = (v: string | undefined) => (v?.trim() ? v : undefined);

/** Parses, runs the verb, revalidates the page; a refusal becomes the form's error. */
async function run<S extends z.ZodType>(
  companyId: string,
  issueId: string,
  schema: S,
  raw: unknown,
  verb: (ctx: Awaited<ReturnType<typeof requireUserContext>>, input: z.output<S>) => Promise<unknown>,
  notice: string,
): Promise<WorkActionState> {
  const ctx = await requireUserContext();
  const input = schema.safeParse(raw);
  if (!input.success) return { error: input.error.issues[0]?.message ?? "check the form" };
  try {
    await verb(ctx, input.data);
  } catch (err) {
    if (!isServiceError(err) || err.status >= 500) throw err;
    if (err.code === "revision_conflict") {
      const current = (err.details?.current ?? null) as { revision?: number } | null;
      return {
        error: current
          ? `This document changed since you opened it (it is now at revision ${current.revision}). Your text was not saved: copy it, reload the page and edit the current revision.`
          : "A document with this key already exists: reload the page and edit it.",
      };
    }
    return { error: err.message };
  }
  revalidatePath(`/c/${companyId}/issues/${issueId}`);
  return { notice };
}

export async function finishIssueAction(
  companyId: string,
  issueId: string,
  _s: WorkActionState,
  form: FormData,
) {
  return run(
    companyId,
    issueId,
    FinishIssueInput,
    { summary: optional(text(form, "summary")) },
    (ctx, i) => finishIssue(ctx, issueId, i),
    "Finished.",
  );
}

export async function blockIssueAction(
  companyId: string,
  issueId: string,
  _s: WorkActionState,
  form: FormData,
) {
  return run(
    companyId,
    issueId,
    BlockIssueInput,
    { reason: text(form, "reason") },
    (ctx, i) => blockIssue(ctx, issueId, i),
    "Blocked.",
  );
}

export async function moveIssueAction(
  companyId: string,
  issueId: string,
  _s: WorkActionState,
  form: FormData,
) {
  return run(
    companyId,
    issueId,
    UpdateIssueInput,
    { status: text(form, "status") },
    (ctx, i) => updateIssue(ctx, issueId, i),
    "Moved.",
  );
}

export async function saveDocumentAction(
  companyId: string,
  issueId: string,
  _s: WorkActionState,
  form: FormData,
) {
  const key = text(form, "key") ?? "";
  return run(
    companyId,
    issueId,
    WriteDocumentInput,
    {
      body: text(form, "body") ?? "",
      baseRevisionId: optional(text(form, "baseRevisionId")) ?? null,
      title: optional(text(form, "title")),
    },
    (ctx, i) => writeDocument(ctx, issueId, key, i),
    "Saved a new revision.",
  );
}

export async function registerDeliverableAction(
  companyId: string,
  issueId: string,
  _s: WorkActionState,
  form: FormData,
) {
  return run(
    companyId,
    issueId,
    RegisterWorkProductInput,
    { kind: text(form, "kind"), title: text(form, "title"), reference: text(form, "reference") },
    (ctx, i) => registerWorkProduct(ctx, issueId, i),
    "Registered.",
  );
}
