"use client";

import { useState } from "react";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Card, CardBody, CardHeader } from "../ui/Card";

/**
 * Settings › Experimental › Assistant connections (MCP): the instance-wide switch of the public
 * MCP connection. Optimistic, with rollback when the save fails; immediate, no restart.
 */
export function ExperimentalCard({
  initialEnabled,
  endpoint,
}: {
  initialEnabled: boolean;
  endpoint: string;
}) {
  const [enabled, setEnabled] = useState(initialEnabled);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function toggle(next: boolean) {
    const previous = enabled;
    setEnabled(next);
    setPending(true);
    setError(null);
    try {
      const r = await apiFetch<{ enabled: boolean }>("/api/instance/public-mcp", {
        method: "PUT",
        body: { enabled: next },
      });
      setEnabled(r.enabled);
    } catch (err) {
      setEnabled(previous);
      setError(err);
    } finally {
      setPending(false);
    }
  }

  return (
    <Card data-testid="experimental-public-mcp">
      <CardHeader
        title="Assistant connections (MCP)"
        description={
          <>
            Lets people connect outside assistants (Claude Code, Codex CLI, ChatGPT, MCP Inspector) to
            Paperclip with OAuth, as themselves, in one organization, at <code>{endpoint}</code>. Turning it
            off stops new connections and every connected assistant at once; people can still revoke them.
          </>
        }
      />
      <CardBody className="space-y-3">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            data-testid="public-mcp-toggle"
            checked={enabled}
            disabled={pending}
            onChange={(e) => void toggle(e.target.checked)}
          />
          Enable assistant connections (MCP)
        </label>
        <ApiErrorAlert error={error} title="Could not save the setting" />
      </CardBody>
    </Card>
  );
}
