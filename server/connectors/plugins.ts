import { z } from "zod";
import { processCell, processSingleton } from "../config/process-singleton";
import { ServiceError } from "../errors";
import type { BuiltinTool } from "./builtin";

/**
 * In-process plugin tool registry. Plugin tools are governed exactly like upstream MCP tools:
 * an agent reaches them only through the gateway pipeline (there is no other route that runs
 * them), under a `paperclip_plugin` application whose connection names the plugin id.
 */
export interface PluginDefinition {
  id: string;
  name: string;
  description: string;
  tools: BuiltinTool[];
}

type Registry = Map<string, PluginDefinition>;
const registry: Registry = processSingleton("plugins", () => new Map());

export function registerPlugin(plugin: PluginDefinition): void {
  if (!/^[a-z][a-z0-9-]{1,47}$/.test(plugin.id)) throw new Error(`invalid plugin id \`${plugin.id}\``);
  registry.set(plugin.id, plugin);
}

export function getPlugin(id: string): PluginDefinition | undefined {
  return registry.get(id);
}

export function listPlugins(): PluginDefinition[] {
  return [...registry.values()];
}

const registeredSelfTools = processCell<readonly BuiltinTool[]>("selfTools");

/**
 * Paperclip's own agent tools register here (`server/self-tools/`, imported by the adapters):
 * they call the core verbs, which sit above the connectors, so the connectors only know them
 * through this interface.
 */
export function registerSelfTools(tools: readonly BuiltinTool[]): void {
  registeredSelfTools.current = tools;
}

/** The registered self tools; none registered in this process fails closed. */
export function selfTools(): readonly BuiltinTool[] {
  const tools = registeredSelfTools.current;
  if (!tools)
    throw new ServiceError("runtime_unavailable", "Paperclip's own tools are not loaded in this process");
  return tools;
}

// A built-in plugin: small text utilities, handy for examples and tests.
registerPlugin({
  id: "text-utils",
  name: "Text utilities",
  description: "Word counts and slugs — a built-in plugin governed like any other tool source.",
  tools: [
    {
      name: "word_count",
      title: "Count words",
      description: "Counts the words in a text.",
      risk: "read",
      annotations: { readOnlyHint: true },
      input: z.object({ text: z.string().max(100_000) }),
      run: async (_ctx, a) => ({ words: (a.text as string).trim().split(/\s+/).filter(Boolean).length }),
    },
    {
      name: "slugify",
      title: "Make a slug",
      description: "Turns a title into a URL slug.",
      risk: "read",
      annotations: { readOnlyHint: true },
      input: z.object({ text: z.string().max(1_000) }),
      run: async (_ctx, a) => ({
        slug: (a.text as string)
          .toLowerCase()
          .normalize("NFKD")
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-+|-+$/g, ""),
      }),
    },
  ],
});
