/** work operations (docs/public-mcp.md). */
import type { Operation } from "../registry";

export const WORK_OPERATIONS: Operation[] = [];
