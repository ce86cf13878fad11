import type { ChangeEvent, ReactNode } from "react";
import { Field, type FieldProps } from "./Field";
import { Input, type InputProps } from "./Input";
import { Label } from "./Label";
import { Select, type SelectProps } from "./Select";
import { Textarea, type TextareaProps } from "./Textarea";

/**
 * A labelled control in one element: `Field` (label, hint, error, aria wiring) around an
 * `Input`, `Select` or `Textarea`. Props other than the field's own go to the control in the
 * order given, so the markup is what `<Field>{(control) => <Input {...control} … />}</Field>`
 * renders.
 */
interface FieldFrameProps extends Pick<FieldProps, "id" | "label" | "hint" | "error" | "required"> {
  /** Classes for the field's wrapper (the control takes `className`). */
  fieldClassName?: string;
  /** The wrapper's test id (the control takes `data-testid`). */
  fieldTestId?: string;
  /** Called with the control's new value; an `onChange` given as well runs first. */
  onValueChange?: (value: string) => void;
}

/** Splits a field control's props into the `Field`'s, the control's and its change handler. */
function splitField<P extends FieldFrameProps & { onChange?: (e: ChangeEvent<never>) => void }>(props: P) {
  const { id, label, hint, error, required, fieldClassName, fieldTestId, onValueChange, ...control } = props;
  const field = { id, label, hint, error, required, className: fieldClassName, "data-testid": fieldTestId };
  const { onChange } = control;
  const handleChange = onValueChange
    ? (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
        onChange?.(e as never);
        onValueChange(e.target.value);
      }
    : onChange;
  return { field, control, onChange: handleChange };
}

export type InputFieldProps = FieldFrameProps & Omit<InputProps, "id" | "required">;

export function InputField(props: InputFieldProps) {
  const { field, control, onChange } = splitField(props);
  return <Field {...field}>{(aria) => <Input {...aria} {...control} onChange={onChange} />}</Field>;
}

export type TextareaFieldProps = FieldFrameProps & Omit<TextareaProps, "id" | "required">;

export function TextareaField(props: TextareaFieldProps) {
  const { field, control, onChange } = splitField(props);
  return <Field {...field}>{(aria) => <Textarea {...aria} {...control} onChange={onChange} />}</Field>;
}

export interface SelectOption {
  value: string;
  label: ReactNode;
  disabled?: boolean;
}

/** `{ value: id, label: name }` for each row, the usual option list of a picker. */
export function namedOptions(items: readonly { id: string; name: string }[]): SelectOption[] {
  return items.map((item) => ({ value: item.id, label: item.name }));
}

/** One option per value, labelled by `labels` (a lookup table or a function). */
export function valueOptions<V extends string>(
  values: readonly V[],
  labels: Readonly<Record<V, ReactNode>> | ((value: V) => ReactNode),
): SelectOption[] {
  return values.map((value) => ({
    value,
    label: typeof labels === "function" ? labels(value) : labels[value],
  }));
}

export type SelectFieldProps = FieldFrameProps &
  Omit<SelectProps, "id" | "required" | "children"> & {
    options: readonly SelectOption[];
    /** The label of a first option with the empty value ("All agents", "Choose…"). */
    placeholder?: ReactNode;
  };

export function SelectField({ options, placeholder, ...props }: SelectFieldProps) {
  const { field, control, onChange } = splitField(props);
  return (
    <Field {...field}>
      {(aria) => (
        <Select {...aria} {...control} onChange={onChange}>
          {placeholder === undefined ? null : <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/**
 * Props for a control that takes machine text (slugs, names, globs, tool names, JSON): no
 * autofill, no spell check, monospace. Spread them where those three props would go.
 */
export const codeInput = { autoComplete: "off", spellCheck: false, className: "font-mono" } as const;

/** `codeInput` for a secret value: the browser may offer to save it as a new password. */
export const secretInput = {
  autoComplete: "new-password",
  spellCheck: false,
  className: "font-mono",
} as const;

/** Monospace without spell check, for machine text where autofill is left alone. */
export const monoInput = { spellCheck: false, className: "font-mono" } as const;

/** The optional description of a resource: a two-row textarea with the id `${idPrefix}-description`. */
export function DescriptionField({
  idPrefix,
  ...props
}: { idPrefix: string } & Omit<TextareaFieldProps, "id" | "label">) {
  return <TextareaField id={`${idPrefix}-description`} label="Description" rows={2} {...props} />;
}

/** A resource's required name: a text input with the id `${idPrefix}-name`. */
export function NameField({
  idPrefix,
  ...props
}: { idPrefix: string } & Omit<InputFieldProps, "id" | "label" | "required">) {
  return <InputField id={`${idPrefix}-name`} label="Name" required {...props} />;
}

/** A label over a bare input, for the native (server action) forms: no hint or error wiring. */
export function LabeledInput({ label, ...props }: InputProps & { id: string; label: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={props.id}>{label}</Label>
      <Input {...props} />
    </div>
  );
}
