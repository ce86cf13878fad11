"use client";

import { useId, useState } from "react";
import { DescriptionField, NameField } from "../ui/FieldControls";

/** A profile's name and description as the create and edit forms hold them. */
export function useProfileDetails(initial?: { name: string; description: string | null }) {
  const idPrefix = useId();
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [error, setError] = useState<string | null>(null);
  return {
    idPrefix,
    name,
    setName,
    description,
    setDescription,
    error,
    /** The trimmed values, or null after asking for a name (a profile must have one). */
    read(): { name: string; description: string } | null {
      const trimmed = name.trim();
      if (!trimmed) {
        setError("Give the profile a name.");
        return null;
      }
      setError(null);
      return { name: trimmed, description: description.trim() };
    },
    reset() {
      setName("");
      setDescription("");
    },
  };
}

/** The Name and Description fields of a profile form; `testIdPrefix` names both controls. */
export function ProfileDetailsFields({
  details,
  placeholder,
  testIdPrefix,
}: {
  details: ReturnType<typeof useProfileDetails>;
  placeholder?: string;
  testIdPrefix?: string;
}) {
  return (
    <>
      <NameField
        idPrefix={details.idPrefix}
        error={details.error}
        value={details.name}
        onChange={(e) => details.setName(e.target.value)}
        placeholder={placeholder}
        maxLength={200}
        data-testid={testIdPrefix && `${testIdPrefix}-name`}
      />
      <DescriptionField
        idPrefix={details.idPrefix}
        value={details.description}
        onChange={(e) => details.setDescription(e.target.value)}
        data-testid={testIdPrefix && `${testIdPrefix}-description`}
      />
    </>
  );
}
