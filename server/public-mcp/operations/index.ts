/**
 * All operations, in the order `paperclip_search_api` lists them. Each area keeps its own file
 * (original directory tools, work, files, configuration); names must be unique (the registry
 * test checks).
 */
import type { Operation } from "../registry";
import { CONFIG_OPERATIONS } from "./config";
import { FILE_OPERATIONS } from "./files";
import { ORIGINAL_OPERATIONS } from "./original";
import { WORK_OPERATIONS } from "./work";

export const OPERATIONS: readonly Operation[] = [
  ...ORIGINAL_OPERATIONS,
  ...WORK_OPERATIONS,
  ...FILE_OPERATIONS,
  ...CONFIG_OPERATIONS,
];

const BY_NAME = new Map(OPERATIONS.map((op) => [op.name, op]));
const BY_TOOL = new Map(OPERATIONS.filter((op) => op.tool).map((op) => [op.tool!, op]));

export const operationNamed = (name: string): Operation | undefined => BY_NAME.get(name);
export const operationForTool = (tool: string): Operation | undefined => BY_TOOL.get(tool);
