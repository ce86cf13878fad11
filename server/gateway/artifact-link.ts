/** The URI and `resource_link` of a stored result artifact (read through `artifacts.ts`). */
export const ARTIFACT_URI_PREFIX = "paperclip://artifacts/";

export const artifactUri = (id: string) => `${ARTIFACT_URI_PREFIX}${id}`;
export const isArtifactUri = (uri: unknown): uri is string =>
  typeof uri === "string" && uri.startsWith(ARTIFACT_URI_PREFIX);

/** A `resource_link` content block for a stored artifact (MCP 2025-11-25, tool results). */
export function artifactLink(id: string, invocationId: string) {
  return {
    type: "resource_link" as const,
    uri: artifactUri(id),
    name: `result-${invocationId}`,
    title: "The complete result",
    description: "The complete result, stored by the gateway: read it with resources/read.",
    mimeType: "application/json",
  };
}
