import { LabeledInput } from "../ui/FieldControls";

export const NEW_PASSWORD_LABEL = "New password (at least 12 characters)";

export interface PasswordInputSpec {
  label: string;
  id: string;
  name: string;
  testId: string;
  /** The person's current password (no minimum length); otherwise a new one of 12+ characters. */
  current?: boolean;
}

/** Labelled password inputs of the native account forms, one per spec. */
export function PasswordInputs({ inputs }: { inputs: readonly PasswordInputSpec[] }) {
  return (
    <>
      {inputs.map(({ label, id, name, testId, current }) => (
        <LabeledInput
          key={id}
          label={label}
          id={id}
          name={name}
          type="password"
          autoComplete={current ? "current-password" : "new-password"}
          minLength={current ? undefined : 12}
          required
          data-testid={testId}
        />
      ))}
    </>
  );
}
