import { z } from "zod";
import type { Db } from "@/db/client";
import type { Risk } from "../access/types";
import { ServiceError } from "../errors";

/**
 * In-process tools (Paperclip's own self tools and plugins) as the connectors run them: the
 * tool shape, argument validation and the catalog form. The tools themselves live above the
 * core verbs (`server/self-tools/`, plugins) and register with `plugins.ts`.
 */

/** What a self tool may touch: the session's company and run context, nothing else. */
export interface SelfToolContext {
  db: Db;
  companyId: string;
  agentId: string;
  runId: string;
  issueId: string | null;
}

export interface BuiltinTool {
  name: string;
  title: string;
  description: string;
  risk: Risk;
  input: z.ZodObject;
  annotations: Record<string, unknown>;
  run: (ctx: SelfToolContext, args: Record<string, unknown>) => Promise<unknown>;
}

/** A refusal of a built-in tool's input (answered to the agent as `arguments_invalid`). */
export const toolError = (message: string) => new ServiceError("tool_input_invalid", message);

/** Runs a built-in tool after validating its arguments with the tool's own schema. */
export async function runBuiltinTool(
  tools: readonly BuiltinTool[],
  name: string,
  ctx: SelfToolContext,
  args: unknown,
) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw toolError(`unknown tool \`${name}\``);
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw toolError(
      `invalid arguments${first?.path.length ? ` at \`${first.path.join(".")}\`` : ""}: ${first?.message}`,
    );
  }
  return tool.run(ctx, parsed.data as Record<string, unknown>);
}

/** The catalog form of built-in tools (JSON schema of their inputs). */
export function builtinCatalog(tools: readonly BuiltinTool[]) {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input) as Record<string, unknown>,
    annotations: t.annotations,
    risk: t.risk,
  }));
}
