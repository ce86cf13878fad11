/**
 * The one label module: every people-readable name for a machine value the console shows.
 * Views import from "@/components/labels"; the code stays visible as a tooltip where it helps
 * (ui/CodeLabel.tsx) because codes are what support and the docs talk about.
 */

export * from "./activity";
export * from "./codes";
export * from "./enums";
export * from "./review";
export * from "./statuses";
export * from "./tones";
