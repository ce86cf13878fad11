/** config operations (docs/public-mcp.md). */
import type { Operation } from "../registry";

export const CONFIG_OPERATIONS: Operation[] = [];
