"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { Select } from "../ui/Select";
import { Textarea } from "../ui/Textarea";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { DecisionCard } from "./DecisionCard";
import { useToolTargets } from "./hooks";
import { useToolsApi } from "./ToolsApiProvider";
import type { NamedRef, PolicyTestInput, PolicyTestResult } from "./types";

export interface TestCallPanelProps {
  companyId: string;
  agents: NamedRef[];
  /** A decision to show before any test is run (stories, or a result kept across navigation). */
  initialResult?: PolicyTestResult | null;
  className?: string;
}

type FieldErrors = Partial<Record<"agentId" | "tool" | "arguments", string>>;

const TOOL_NAME = /^[^\s_][^\s]*__[^\s]+$/;

/** Parses the arguments box: empty means `{}`; anything else must be a JSON object. */
export function parseArgumentsJson(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `Not valid JSON${error instanceof Error && error.message ? `: ${error.message}` : "."}`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: 'Arguments must be a JSON object, e.g. {"to": "ops@acme.com"}.' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Asks the gateway what it would decide for a call. Nothing is executed. */
export function TestCallPanel({ companyId, agents, initialResult = null, className }: TestCallPanelProps) {
  const api = useToolsApi();
  const id = useId();
  const targets = useToolTargets(companyId);
  const [agentId, setAgentId] = useState(agents[0]?.id ?? "");
  const [tool, setTool] = useState("");
  const [argsText, setArgsText] = useState("{}");
  const [issueId, setIssueId] = useState("");
  const [projectId, setProjectId] = useState("");
  const [routineId, setRoutineId] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  // After a failed check, take keyboard focus to the first field that needs attention.
  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const test = useMutation({
    mutationFn: (body: PolicyTestInput) =>
      api<PolicyTestResult>(toolsApiPath(companyId, "/policies/test"), { method: "POST", body }),
  });
  const result = test.data ?? (test.isIdle ? initialResult : null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: FieldErrors = {};
    if (!agentId) next.agentId = "Choose the agent making the call.";
    const toolName = tool.trim();
    if (!toolName) next.tool = "Enter the tool's qualified name, e.g. github__create_issue.";
    else if (!TOOL_NAME.test(toolName)) next.tool = "Use application__tool, e.g. github__create_issue.";
    const parsed = parseArgumentsJson(argsText);
    if (!parsed.ok) next.arguments = parsed.error;
    setErrors(next);
    if (Object.keys(next).length > 0 || !parsed.ok) {
      setAttempt((n) => n + 1);
      return;
    }
    const body: PolicyTestInput = { agentId, tool: toolName, arguments: parsed.value };
    if (issueId) body.issueId = issueId;
    if (projectId) body.projectId = projectId;
    if (routineId) body.routineId = routineId;
    test.mutate(body);
  }

  const t = targets.data;
  return (
    <div className={cn("space-y-4", className)} data-testid="test-call-panel">
      <Card>
        <CardHeader
          title="Test a call"
          description="See what the gateway would decide for an agent calling a tool. This is a dry run: nothing is executed and the tool is never called."
        />
        <CardBody>
          {agents.length === 0 ? (
            <p className="mb-4 text-sm text-zinc-600" data-testid="test-no-agents">
              This company has no agents yet. Create an agent to test its calls.
            </p>
          ) : null}
          <form
            ref={formRef}
            onSubmit={submit}
            noValidate
            className="space-y-4"
            aria-label="Test a tool call"
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={`${id}-agent`} label="Agent" required error={errors.agentId}>
                {(control) => (
                  <Select
                    {...control}
                    value={agentId}
                    onChange={(e) => setAgentId(e.target.value)}
                    disabled={agents.length === 0}
                    data-testid="test-agent"
                  >
                    <option value="">{agents.length === 0 ? "No agents yet" : "Choose an agent…"}</option>
                    {agents.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field
                id={`${id}-tool`}
                label="Tool"
                required
                error={errors.tool}
                hint="Qualified name: application__tool."
              >
                {(control) => (
                  <Input
                    {...control}
                    value={tool}
                    onChange={(e) => setTool(e.target.value)}
                    placeholder="github__create_issue"
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    data-testid="test-tool"
                  />
                )}
              </Field>
            </div>
            <Field
              id={`${id}-arguments`}
              label="Arguments"
              error={errors.arguments}
              hint="A JSON object, as the agent would send it."
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={5}
                  value={argsText}
                  onChange={(e) => setArgsText(e.target.value)}
                  spellCheck={false}
                  className="font-mono"
                  data-testid="test-arguments"
                />
              )}
            </Field>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-zinc-800">Context (optional)</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                <Field id={`${id}-issue`} label="Issue">
                  {(control) => (
                    <Select
                      {...control}
                      value={issueId}
                      onChange={(e) => setIssueId(e.target.value)}
                      data-testid="test-issue"
                    >
                      <option value="">{targets.isPending ? "Loading…" : "No issue"}</option>
                      {(t?.issues ?? []).map((i) => (
                        <option key={i.id} value={i.id}>
                          {i.identifier} · {i.title}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                <Field id={`${id}-project`} label="Project">
                  {(control) => (
                    <Select
                      {...control}
                      value={projectId}
                      onChange={(e) => setProjectId(e.target.value)}
                      data-testid="test-project"
                    >
                      <option value="">{targets.isPending ? "Loading…" : "No project"}</option>
                      {(t?.projects ?? []).map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.name}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                <Field id={`${id}-routine`} label="Routine">
                  {(control) => (
                    <Select
                      {...control}
                      value={routineId}
                      onChange={(e) => setRoutineId(e.target.value)}
                      data-testid="test-routine"
                    >
                      <option value="">{targets.isPending ? "Loading…" : "No routine"}</option>
                      {(t?.routines ?? []).map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.name}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              </div>
              <ApiErrorAlert error={targets.error} title="Could not load issues, projects and routines" />
            </fieldset>
            <div className="flex justify-end">
              <PendingButton
                pending={test.isPending}
                pendingLabel="Testing…"
                type="submit"
                disabled={agents.length === 0}
                data-testid="test-submit"
              >
                Test
              </PendingButton>
            </div>
          </form>
        </CardBody>
      </Card>
      <div aria-live="polite" aria-atomic="true" data-testid="test-result">
        <ApiErrorAlert error={test.error} title="The test could not run" />
        {result ? <DecisionCard result={result} /> : null}
      </div>
    </div>
  );
}
