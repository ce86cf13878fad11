#!/usr/bin/env node
// The `paperclipai` bin: runs scripts/paperclipai.ts through tsx (a dependency), so the
// TypeScript sources need no build step. Nothing is printed here: in `mcp proxy`, stdout
// belongs to the MCP host.
import { register } from "tsx/esm/api";

register();
await import("./paperclipai.ts");
