import { CreateSessionInput, createGatewaySession } from "@/server/gateway/sessions";
import { route } from "@/server/http/route";

// A board member, or the run's own agent key, mints a run-bound gateway session.
export const POST = route(
  { actors: ["board", "agent"], body: CreateSessionInput, status: 201 },
  ({ ctx, body }) => createGatewaySession(ctx, body),
);
