"use client";

import { Badge } from "../ui/Badge";
import { codeInput, InputField, monoInput, TextareaField } from "../ui/FieldControls";
import { SubmitButton } from "../ui/SubmitButton";

/** An instruction or skill file as listed: the legacy template has no revision. */
export interface FileHeadView {
  path: string;
  versioned: boolean;
  revision: number | null;
  sha256: string;
}

export interface FileView extends FileHeadView {
  body: string;
}

/** Hidden inputs a form carries besides its own fields (the skill id …). */
type Hidden = Record<string, string>;

const hiddenInputs = (hidden: Hidden) =>
  Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);

/** The revision badge of a file, or "legacy, unversioned". */
export function RevisionBadge({ file }: { file: FileHeadView }) {
  return file.versioned ? (
    <Badge tone="neutral">rev {file.revision}</Badge>
  ) : (
    <Badge tone="warning">legacy, unversioned</Badge>
  );
}

/**
 * One file's body: an editor that saves against the revision it shows (a concurrent save makes
 * the server answer "changed since", nothing is lost), or the text alone when read-only.
 */
export function FileEditor({
  file,
  canEdit,
  formAction,
  hidden = {},
  testId,
}: {
  file: FileView;
  canEdit: boolean;
  formAction: (formData: FormData) => void;
  hidden?: Hidden;
  testId: string;
}) {
  if (!canEdit)
    return (
      <pre
        className="max-h-96 overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap text-zinc-800"
        data-testid={`${testId}-body`}
      >
        {file.body}
      </pre>
    );
  return (
    <form action={formAction} className="space-y-3" data-testid={`${testId}-form`}>
      <input type="hidden" name="intent" value="write-file" />
      <input type="hidden" name="path" value={file.path} />
      <input type="hidden" name="baseRevision" value={String(file.revision ?? "")} />
      {hiddenInputs(hidden)}
      <TextareaField
        id={`${testId}-body`}
        label={file.path}
        name="body"
        rows={14}
        defaultValue={file.body}
        {...monoInput}
        data-testid={`${testId}-body`}
      />
      <SubmitButton pendingLabel="Saving…" data-testid={`${testId}-save`}>
        Save revision {(file.revision ?? 0) + 1}
      </SubmitButton>
    </form>
  );
}

/** Creates a new file (revision 1) at a path. */
export function NewFileForm({
  formAction,
  hidden = {},
  defaultPath,
  testId,
}: {
  formAction: (formData: FormData) => void;
  hidden?: Hidden;
  defaultPath: string;
  testId: string;
}) {
  return (
    <form action={formAction} className="space-y-3" data-testid={`${testId}-new-form`}>
      <input type="hidden" name="intent" value="create-file" />
      {hiddenInputs(hidden)}
      <InputField
        id={`${testId}-new-path`}
        label="Path"
        name="path"
        defaultValue={defaultPath}
        hint="Relative, letters, digits, . _ / - (no ..)"
        {...codeInput}
        data-testid={`${testId}-new-path`}
      />
      <TextareaField
        id={`${testId}-new-body`}
        label="Content (Markdown)"
        name="body"
        rows={6}
        {...monoInput}
        data-testid={`${testId}-new-body`}
      />
      <SubmitButton pendingLabel="Creating…" data-testid={`${testId}-new-submit`}>
        Create file
      </SubmitButton>
    </form>
  );
}
