import type { Db } from "@/db/client";
import type { ActorType } from "@/db/schema/values";

export type BoardKeyRole = "admin" | "member" | "viewer";

/** Who is acting. Every verb receives one; nothing is trusted from the request body. */
export type Actor =
  /** A signed-in person; `sessionId` names the browser session row when there is one. */
  | {
      type: "user";
      userId: string;
      email: string;
      sessionId?: string;
      /**
       * Set only by the public MCP endpoint: the person acts through this assistant connection
       * (an OAuth grant). The verbs check the person's membership as for any user; the activity
       * row and the task history name the connection and client beside the person.
       */
      via?: AssistantVia;
    }
  | { type: "board_key"; keyId: string; companyId: string; role: BoardKeyRole; userId: string | null }
  | { type: "agent_key"; keyId: string; companyId: string; agentId: string }
  /**
   * An agent inside one of its runs, acting through the gateway's governed self tools
   * (`server/self-tools/`). Never authenticated from a request: only a governed tool call,
   * already confined to the run, builds one.
   */
  | { type: "agent"; companyId: string; agentId: string; runId: string }
  /**
   * A person acting through an assistant connection (server/oauth): one OAuth grant, bound to
   * one company and the grant's scopes narrowed by the person's current role. Only the public
   * MCP endpoint (`/mcp/paperclip`) builds one; every `/api/*` route and the agent gateway
   * refuse OAuth access tokens.
   */
  | {
      type: "oauth_grant";
      grantId: string;
      companyId: string;
      userId: string;
      clientId: string;
      scopes: readonly string[];
    }
  | { type: "system"; reason: string };

/** The assistant connection a person acts through (see the `user` actor's `via`). */
export interface AssistantVia {
  grantId: string;
  /** The OAuth `client_id`. */
  clientId: string;
  clientName: string | null;
}

export interface ServiceContext {
  db: Db;
  actor: Actor;
  requestId: string;
  /** The clock, injectable for tests. */
  now: () => Date;
}

/**
 * The person behind a board actor: the signed-in user, or the user who created the board key
 * (null for agents, the system, and a board key whose creator is gone).
 */
export function actorUserId(actor: Actor): string | null {
  if (actor.type === "user") return actor.userId;
  if (actor.type === "board_key") return actor.userId;
  return null;
}

/** The assistant connection behind the actor, when a person acts through one. */
export const actorVia = (actor: Actor): AssistantVia | null =>
  actor.type === "user" ? (actor.via ?? null) : null;

export const isBoardActor = (a: Actor): a is Extract<Actor, { type: "user" | "board_key" }> =>
  a.type === "user" || a.type === "board_key";

/** The (type, id) pair recorded in activity and audit rows. */
export function actorRef(actor: Actor): { actorType: ActorType; actorId: string } {
  switch (actor.type) {
    case "user":
      return { actorType: "user", actorId: actor.userId };
    case "board_key":
      return { actorType: "board_key", actorId: actor.keyId };
    case "agent_key":
      return { actorType: "agent_key", actorId: actor.keyId };
    case "agent":
      return { actorType: "agent", actorId: actor.agentId };
    case "oauth_grant":
      return { actorType: "oauth_grant", actorId: actor.grantId };
    case "system":
      return { actorType: "system", actorId: actor.reason };
  }
}

export function systemContext(db: Db, reason: string): ServiceContext {
  return { db, actor: { type: "system", reason }, requestId: `sys_${reason}`, now: () => new Date() };
}
