/** files operations (docs/public-mcp.md). */
import type { Operation } from "../registry";

export const FILE_OPERATIONS: Operation[] = [];
