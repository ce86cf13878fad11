import type { ReactNode } from "react";

/** What `fieldFrame` needs beyond a field's name and label. */
export interface FieldFrameOptions<K extends string> {
  required?: boolean;
  /** The key of the field's message in `errors`, when it is not the field's name. */
  error?: K;
}

/**
 * The frame props of a form's fields (`id`, `label`, `error`, `required`) from one place: the
 * form's id prefix and its error map. `frame("slug", "Slug", { required: true })` gives
 * `{ id: "<prefix>-slug", label: "Slug", error: errors.slug, required: true }`, to spread into an
 * `InputField`, `SelectField` or `TextareaField`.
 */
export function fieldFrame<K extends string>(
  idPrefix: string,
  errors: Readonly<Partial<Record<K, ReactNode>>>,
) {
  return (name: string, label: ReactNode, options: FieldFrameOptions<K> = {}) => ({
    id: `${idPrefix}-${name}`,
    label,
    error: errors[options.error ?? (name as K)],
    required: options.required,
  });
}
