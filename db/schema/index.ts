export * from "./auth";
export * from "./core";
export * from "./examples";
export * from "./gateway";
export * from "./oauth";
export * from "./public-mcp";
export * from "./secrets";
export * from "./tools";
