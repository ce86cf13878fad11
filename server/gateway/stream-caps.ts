/**
 * Caps on the MCP endpoint's GET change streams (list-changes.ts): each holds a LISTEN
 * subscription and a keep-alive timer for as long as the client keeps it open, so an agent
 * (or a leaked token) must not be able to open them without bound.
 *
 * - Per session: at most `PER_SESSION` open at once on this replica. One more is refused with
 *   409 `change_streams_limit` — as the SDK's Streamable HTTP server transport answers a second
 *   GET stream (409 Conflict); the spec lets a client hold several streams, and lets a server
 *   refuse one. The open streams are not closed for it (that would let a newcomer cut off the
 *   listener the agent relies on).
 * - Per process: at most `PER_PROCESS` in all; one more is 503 `change_streams_full` (another
 *   replica may take it).
 *
 * A slot is freed when the stream ends either way: the client cancels it, or the server
 * closes it (the session ended).
 */
import { ServiceError } from "../errors";
import type { StreamedResponse } from "./streams";

export const CHANGE_STREAMS_PER_SESSION = 2;
export const CHANGE_STREAMS_PER_PROCESS = 1000;

export class StreamSlots {
  private readonly bySession = new Map<string, number>();
  private total = 0;

  constructor(
    readonly perSession: number,
    readonly perProcess: number,
  ) {}

  /** Takes a slot for `sessionId` (refused over a cap); the returned function frees it, once. */
  acquire(sessionId: string): () => void {
    const held = this.bySession.get(sessionId) ?? 0;
    if (held >= this.perSession)
      throw new ServiceError(
        "change_streams_limit",
        `this session already holds ${this.perSession} open change streams (GET); close one first`,
        { limit: this.perSession },
      );
    if (this.total >= this.perProcess)
      throw new ServiceError(
        "change_streams_full",
        "this server holds all the change streams it may; retry later",
        {
          retryAfterSeconds: 5,
        },
      );
    this.bySession.set(sessionId, held + 1);
    this.total++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.total--;
      const left = (this.bySession.get(sessionId) ?? 1) - 1;
      if (left > 0) this.bySession.set(sessionId, left);
      else this.bySession.delete(sessionId);
    };
  }

  /** Open streams of a session (and in all). */
  held(sessionId?: string): number {
    return sessionId === undefined ? this.total : (this.bySession.get(sessionId) ?? 0);
  }

  /**
   * Opens a stream within a slot: `open` runs holding it; the slot is freed when the stream's
   * body ends or is cancelled, or at once when `open` fails.
   */
  async within(sessionId: string, open: () => Promise<StreamedResponse>): Promise<StreamedResponse> {
    const release = this.acquire(sessionId);
    let opened: StreamedResponse;
    try {
      opened = await open();
    } catch (err) {
      release();
      throw err;
    }
    const reader = opened.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            c.close();
          } else c.enqueue(value);
        } catch (err) {
          release();
          c.error(err);
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    });
    return { ...opened, body };
  }
}

/** This process's change-stream slots. */
export const changeStreamSlots = new StreamSlots(CHANGE_STREAMS_PER_SESSION, CHANGE_STREAMS_PER_PROCESS);
