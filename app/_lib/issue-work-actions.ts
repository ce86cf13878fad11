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

type Ctx = Awaited<ReturnType<typeof requireUserContext>>;

interface WorkForm<S extends z.ZodType> {
  schema: S;
  /** The verb's input from the form's fields. */
  read: (form: FormData) => unknown;
  verb: (ctx: Ctx, issueId: string, input: z.output<S>, form: FormData) => Promise<unknown>;
  notice: string;
}
const workForm = <S extends z.ZodType>(f: WorkForm<S>) => f as unknown as WorkForm<z.ZodType>;

/** The issue page's work forms, by the name the page binds. */
const WORK_FORMS = {
  finish: workForm({
    schema: FinishIssueInput,
    read: (f) => ({ summary: optional(text(f, "summary")) }),
    verb: (ctx, id, input) => finishIssue(ctx, id, input),
    notice: "Finished.",
  }),
  block: workForm({
    schema: BlockIssueInput,
    read: (f) => ({ reason: text(f, "reason") }),
    verb: (ctx, id, input) => blockIssue(ctx, id, input),
    notice: "Blocked.",
  }),
  move: workForm({
    schema: UpdateIssueInput,
    read: (f) => ({ status: text(f, "status") }),
    verb: (ctx, id, input) => updateIssue(ctx, id, input),
    notice: "Moved.",
  }),
  document: workForm({
    schema: WriteDocumentInput,
    read: (f) => ({
      body: text(f, "body") ?? "",
      baseRevisionId: optional(text(f, "baseRevisionId")) ?? null,
      title: optional(text(f, "title")),
    }),
    verb: (ctx, id, input, f) => writeDocument(ctx, id, text(f, "key") ?? "", input),
    notice: "Saved a new revision.",
  }),
  deliverable: workForm({
    schema: RegisterWorkProductInput,
    read: (f) => ({ kind: text(f, "kind"), title: text(f, "title"), reference: text(f, "reference") }),
    verb: (ctx, id, input) => registerWorkProduct(ctx, id, input),
    notice: "Registered.",
  }),
};

export type IssueWorkForm = keyof typeof WORK_FORMS;

/**
 * One work form's submission: parse, run the verb as the signed-in person, revalidate the
 * page; a refusal becomes the form's error (a stale document revision, a readable conflict).
 */
export async function issueWorkAction(
  name: IssueWorkForm,
  companyId: string,
  issueId: string,
  _state: WorkActionState,
  form: FormData,
): Promise<WorkActionState> {
  // The name comes back from the browser with the bound arguments: only the table's own entries.
  if (!Object.hasOwn(WORK_FORMS, name)) return { error: "unknown form" };
  const spec = WORK_FORMS[name];
  const ctx = await requireUserContext();
  const input = spec.schema.safeParse(spec.read(form));
  if (!input.success) return { error: input.error.issues[0]?.message ?? "check the form" };
  try {
    await spec.verb(ctx, issueId, input.data, form);
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
  return { notice: spec.notice };
}
