export * from "./auth";
export * from "./core";
export * from "./examples";
export * from "./files";
export * from "./gateway";
export * from "./oauth";
export * from "./secrets";
export * from "./tools";
