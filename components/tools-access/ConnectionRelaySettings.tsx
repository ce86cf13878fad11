"use client";

import { type FormEvent, useId, useState } from "react";
import { formatDuration } from "../format";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { Checkbox } from "./controls";
import type { Connection } from "./types";
import { useConnectionUpdate } from "./useConnectionUpdate";

type RelayUpdate = {
  allowSampling?: boolean;
  allowElicitation?: boolean;
  transportConfig?: Connection["transportConfig"];
};

const ABOUT = "What this application's server may ask of the agent while one of its tools runs.";

const SWITCHES = [
  {
    key: "allowSampling",
    label: "Allow sampling",
    help: "The server may ask the agent's model to write text (sampling/createMessage). This spends the agent's model and its budget; off by default.",
    testId: "connection-allow-sampling",
  },
  {
    key: "allowElicitation",
    label: "Allow elicitation",
    help: "The server may ask the agent, and through it a person, for input (elicitation/create); off by default.",
    testId: "connection-allow-elicitation",
  },
] as const;

/**
 * What an upstream may ask of the agent during a call (sampling, elicitation) and the hard
 * maximum of a call: the connection's relay settings, edited by whoever may edit the connection.
 */
export function ConnectionRelaySettings({
  companyId,
  connection,
  canEdit,
}: {
  companyId: string;
  connection: Connection;
  canEdit: boolean;
}) {
  const id = useId();
  const maxCallMs = connection.transportConfig.maxCallMs;
  const [maxSeconds, setMaxSeconds] = useState(maxCallMs ? String(maxCallMs / 1000) : "");
  const update = useConnectionUpdate<RelayUpdate>(companyId, connection.id);
  const seconds = maxSeconds.trim() === "" ? null : Number(maxSeconds);
  const secondsValid = seconds === null || (Number.isFinite(seconds) && seconds >= 0.1 && seconds <= 3600);

  function saveMax(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!secondsValid) return;
    const { maxCallMs: _old, ...rest } = connection.transportConfig;
    update.mutate({
      transportConfig: seconds === null ? rest : { ...rest, maxCallMs: Math.round(seconds * 1000) },
    });
  }

  return (
    <Card data-testid="connection-relay-settings">
      <CardHeader title="During a call" titleAs="h3" description={ABOUT} />
      <CardBody className="space-y-3">
        {SWITCHES.map((sw) => (
          <Checkbox
            key={sw.key}
            label={sw.label}
            description={sw.help}
            checked={connection[sw.key]}
            disabled={!canEdit || update.isPending}
            onChange={(e) => update.mutate({ [sw.key]: e.currentTarget.checked })}
            data-testid={sw.testId}
          />
        ))}
        {canEdit ? (
          <form className="space-y-1" onSubmit={saveMax}>
            <label htmlFor={`${id}-max`} className="block text-sm text-zinc-800">
              Longest call, in seconds
            </label>
            <div className="flex items-center gap-2">
              <input
                id={`${id}-max`}
                inputMode="decimal"
                className="w-28 rounded-md border border-zinc-300 px-2 py-1 text-sm"
                value={maxSeconds}
                placeholder="300"
                aria-invalid={!secondsValid}
                onChange={(e) => setMaxSeconds(e.currentTarget.value)}
                data-testid="connection-max-call"
              />
              <PendingButton
                type="submit"
                size="sm"
                variant="secondary"
                pending={update.isPending}
                pendingLabel="Saving…"
              >
                Save
              </PendingButton>
            </div>
            <p className="text-xs text-zinc-500">
              A call is stopped after this long however much progress it reports (0.1–3600; empty: 5 minutes).
            </p>
          </form>
        ) : (
          <p className="text-sm text-zinc-800">
            Longest call: {maxCallMs ? formatDuration(maxCallMs) : "Server default (5 minutes)"}
          </p>
        )}
        <ApiErrorAlert error={update.error} />
      </CardBody>
    </Card>
  );
}
