import type { ZodType } from "zod";
import type { Db } from "@/db/client";
import type { StdioTarget } from "./identity";
import { listSurface, type SlotSurface } from "./launch";
import type { Deferred } from "./slot";
import type { RuntimeSupervisor } from "./supervisor";

// Requests on a slot other than tools (issue 17's stdio half), over the supervisor's one `use`
// path (admission, start, crash policy, last-used) — kept apart so supervisor.ts stays the
// slot lifecycle.

/** The resources, resource templates and prompts of the slot's server. */
export function slotSurface(
  supervisor: RuntimeSupervisor,
  db: Db,
  target: StdioTarget,
  opts: { timeoutMs?: number } = {},
): Promise<SlotSurface | Deferred> {
  const timeout = opts.timeoutMs ?? 30_000;
  return supervisor.use(db, target, (client) => listSurface(client, timeout), { timeoutMs: timeout });
}

/** One request other than a tool call (`resources/read`, `prompts/get`, …) on the slot of `target`. */
export function slotRequest<T>(
  supervisor: RuntimeSupervisor,
  db: Db,
  target: StdioTarget,
  request: { method: string; params?: Record<string, unknown> },
  schema: ZodType<T>,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T | Deferred> {
  const timeout = opts.timeoutMs ?? 10_000;
  return supervisor.use(
    db,
    target,
    async (client) =>
      (await client.request(request as never, schema as never, { timeout, signal: opts.signal })) as T,
    { timeoutMs: timeout },
  );
}
