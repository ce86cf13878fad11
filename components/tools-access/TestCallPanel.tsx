"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import {
  codeInput,
  InputField,
  monoInput,
  namedOptions,
  SelectField,
  type SelectOption,
  TextareaField,
} from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { DecisionCard } from "./DecisionCard";
import { useFocusFirstInvalid, useToolTargets } from "./hooks";
import { useToolsApi } from "./ToolsApiProvider";
import type { NamedRef, PolicyTestInput, PolicyTestResult, ToolTargets } from "./types";

export interface TestCallPanelProps {
  companyId: string;
  agents: NamedRef[];
  /** A decision to show before any test is run (stories, or a result kept across navigation). */
  initialResult?: PolicyTestResult | null;
  className?: string;
}

type FieldErrors = Partial<Record<"agentId" | "tool" | "arguments", string>>;

const TOOL_NAME = /^[^\s_][^\s]*__[^\s]+$/;

type ContextKey = "issue" | "project" | "routine";

/** The optional context pickers: an issue, a project or a routine the call is made for. */
const CONTEXT_PICKERS: readonly {
  key: ContextKey;
  label: string;
  none: string;
  options: (targets: ToolTargets | undefined) => SelectOption[];
}[] = [
  {
    key: "issue",
    label: "Issue",
    none: "No issue",
    options: (t) => (t?.issues ?? []).map((i) => ({ value: i.id, label: `${i.identifier} · ${i.title}` })),
  },
  { key: "project", label: "Project", none: "No project", options: (t) => namedOptions(t?.projects ?? []) },
  { key: "routine", label: "Routine", none: "No routine", options: (t) => namedOptions(t?.routines ?? []) },
];

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
  const [context, setContext] = useState<Record<ContextKey, string>>({ issue: "", project: "", routine: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const field = fieldFrame(id, errors);
  // After a failed check, keyboard focus goes to the first field that needs attention.
  const { formRef, focusInvalid } = useFocusFirstInvalid();

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
      focusInvalid();
      return;
    }
    const body: PolicyTestInput = { agentId, tool: toolName, arguments: parsed.value };
    if (context.issue) body.issueId = context.issue;
    if (context.project) body.projectId = context.project;
    if (context.routine) body.routineId = context.routine;
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
              <SelectField
                {...field("agent", "Agent", { required: true, error: "agentId" })}
                value={agentId}
                onValueChange={setAgentId}
                disabled={agents.length === 0}
                data-testid="test-agent"
                placeholder={agents.length === 0 ? "No agents yet" : "Choose an agent…"}
                options={namedOptions(agents)}
              />
              <InputField
                {...field("tool", "Tool", { required: true })}
                hint="Qualified name: application__tool."
                value={tool}
                onValueChange={setTool}
                placeholder="github__create_issue"
                {...codeInput}
                data-testid="test-tool"
              />
            </div>
            <TextareaField
              {...field("arguments", "Arguments")}
              hint="A JSON object, as the agent would send it."
              rows={5}
              value={argsText}
              onValueChange={setArgsText}
              {...monoInput}
              data-testid="test-arguments"
            />
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-zinc-800">Context (optional)</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                {CONTEXT_PICKERS.map((picker) => (
                  <SelectField
                    key={picker.key}
                    id={`${id}-${picker.key}`}
                    label={picker.label}
                    value={context[picker.key]}
                    onValueChange={(value) => setContext((prev) => ({ ...prev, [picker.key]: value }))}
                    data-testid={`test-${picker.key}`}
                    placeholder={targets.isPending ? "Loading…" : picker.none}
                    options={picker.options(t)}
                  />
                ))}
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
