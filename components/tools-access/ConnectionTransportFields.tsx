"use client";

import type { ReactNode } from "react";
import { InputField, TextareaField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { PRIVATE_UPSTREAM_NOTE, type TransportErrors } from "./gateway";
import type { ApplicationType } from "./types";

export interface TransportValues {
  url: string;
  pluginId: string;
  timeout: string;
  headers: string;
}

export interface ConnectionTransportFieldsProps {
  /** Prefix of the field ids (from `useId`). */
  id: string;
  /** The application's transport; nothing but the timeout shows for an unknown one. */
  type: ApplicationType;
  /** "create" shows placeholders and hints for a new connection; "edit" the settings form's wording. */
  mode: "create" | "edit";
  values: TransportValues;
  onChange: (patch: Partial<TransportValues>) => void;
  errors: TransportErrors;
  /** Rendered between the plugin id and the timeout (the create form's command template). */
  beforeTimeout?: ReactNode;
}

/** URL, plugin id, timeout and non-secret headers of a connection, shared by create and edit. */
export function ConnectionTransportFields({
  id,
  type,
  mode,
  values,
  onChange,
  errors,
  beforeTimeout,
}: ConnectionTransportFieldsProps) {
  const field = fieldFrame(id, errors);
  const create = mode === "create";
  return (
    <>
      {type === "mcp_http" ? (
        <InputField
          {...field("url", "URL", { required: true })}
          hint={create ? "The MCP endpoint, http(s)." : undefined}
          type="url"
          value={values.url}
          onChange={(e) => onChange({ url: e.target.value })}
          placeholder={create ? "https://mcp.example.com/mcp" : undefined}
          className="font-mono"
          spellCheck={false}
          autoComplete={create ? "off" : undefined}
          data-testid={`connection-${mode}-url`}
        />
      ) : null}
      {type === "paperclip_plugin" ? (
        <InputField
          {...field("plugin", "Plugin id", { required: true, error: "pluginId" })}
          value={values.pluginId}
          onChange={(e) => onChange({ pluginId: e.target.value })}
          placeholder={create ? "e.g. text-utils" : undefined}
          className="font-mono"
          maxLength={48}
          spellCheck={create ? false : undefined}
          data-testid={create ? "connection-create-plugin" : undefined}
        />
      ) : null}
      {beforeTimeout}
      <InputField
        id={`${id}-timeout`}
        label="Timeout (ms)"
        hint={create ? "Optional; empty for the server default." : "Empty for the server default."}
        error={errors.timeout}
        type="number"
        inputMode="numeric"
        min={100}
        max={120000}
        value={values.timeout}
        onChange={(e) => onChange({ timeout: e.target.value })}
        placeholder={create ? "30000" : undefined}
        data-testid={create ? "connection-create-timeout" : undefined}
      />
      {type === "mcp_http" ? (
        <>
          <TextareaField
            id={`${id}-headers`}
            label="Non-secret headers"
            hint={
              create
                ? "Optional, one per line as Name: value. Tokens belong in a bound secret."
                : "One per line as Name: value. Tokens belong in a bound secret."
            }
            error={errors.headers}
            rows={create ? 2 : 3}
            value={values.headers}
            onChange={(e) => onChange({ headers: e.target.value })}
            placeholder={create ? "X-Region: eu" : undefined}
            className="font-mono"
            spellCheck={false}
            data-testid={`connection-${mode}-headers`}
          />
          <p className="text-sm text-zinc-600" data-testid="private-upstream-note">
            {PRIVATE_UPSTREAM_NOTE}.
          </p>
        </>
      ) : null}
    </>
  );
}
