/**
 * `paperclipai mcp proxy --url <endpoint>`: a local stdio MCP server for hosts without
 * remote-server or device support. Every message from the host is relayed, as it is, to
 * exactly the stored resource over Streamable HTTP (POST, JSON or SSE answers) with the
 * stored bearer token; answers go back on stdout. A raw relay rather than an SDK
 * `Client`+`Server` pair: the host's own protocol version, capabilities and methods pass
 * through untouched, and the relay sees each HTTP exchange, so it knows when an answer was
 * lost.
 *
 * Retries (spec: "A failed write is never retried automatically because it may already have
 * completed"): a request is re-sent at most once, only after a 401 and a refresh, and only
 * when it cannot change anything — protocol reads (RETRYABLE_METHODS) and `tools/call` of a
 * tool the server marked `readOnlyHint: true` in the last `tools/list`. A write whose answer
 * is lost (connection reset, stream cut) becomes an error saying the outcome is unknown.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CliFailure, EXIT, refreshTokens, requireSecureUrl, scrub } from "./mcp-oauth";
import {
  credentialsFile,
  readCredentials,
  type StoredCredentials,
  withFileLock,
  writeCredentials,
} from "./mcp-store";

/** Refresh this long before the stored expiry, so a request does not race the deadline. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * The stored login of one resource. The file is re-read for every request: another proxy
 * (another host window) may have rotated the tokens.
 */
export class TokenSource {
  constructor(readonly resource: string) {}

  stored(): StoredCredentials & { tokens: NonNullable<StoredCredentials["tokens"]> } {
    const stored = readCredentials(this.resource);
    if (!stored?.tokens)
      throw new CliFailure(
        `not logged in to ${this.resource}; run \`paperclipai mcp login --device --url ${this.resource}\``,
        EXIT.notLoggedIn,
      );
    return stored as StoredCredentials & { tokens: NonNullable<StoredCredentials["tokens"]> };
  }

  /** A token that is not (about to be) expired, refreshing under the lock when needed. */
  async accessToken(): Promise<string> {
    const { tokens } = this.stored();
    if (tokens.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return tokens.accessToken;
    return this.refresh(tokens.accessToken);
  }

  /**
   * Replaces `used` (expired or refused with 401). Under the cross-process lock the file is
   * read again: when another process already replaced `used`, its token is taken and no
   * second refresh is made (refresh tokens rotate: presenting one twice revokes the grant).
   */
  async refresh(used: string): Promise<string> {
    return withFileLock(credentialsFile(this.resource), async () => {
      const stored = this.stored();
      if (stored.tokens.accessToken !== used && stored.tokens.expiresAt - EXPIRY_MARGIN_MS > Date.now())
        return stored.tokens.accessToken;
      const tokens = await refreshTokens(stored);
      writeCredentials({ ...stored, tokens });
      return tokens.accessToken;
    });
  }
}

/** Methods that read or negotiate only: safe to send again after a refresh. */
const RETRYABLE_METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "server/discover",
  "events/list",
]);

type Message = JSONRPCMessage & { id?: string | number; method?: string; params?: Record<string, unknown> };

const isRequest = (m: Message) => typeof m.method === "string" && m.id !== undefined;

/** JSON-RPC error codes of the relay's own errors (the -32000 range is the server's to define). */
export const RELAY_ERRORS = {
  /** The answer was lost: the request may have run. */
  outcomeUnknown: -32001,
  /** The server could not be reached, or refused the stored login. */
  unavailable: -32002,
  /** Refused before running (401) and not re-sent, because it may change data. */
  notSent: -32003,
} as const;

/** Thrown while reading an exchange: the connection broke before the answer arrived. */
class Lost extends Error {}

/** One HTTP exchange's outcome: the messages it carried, or how it ended. */
type Exchange = { kind: "messages"; messages: Message[]; status: number } | { kind: "unauthorized" };

export interface RelayOptions {
  resource: string;
  tokens: TokenSource;
  /** Delivers a message to the host. */
  deliver: (message: JSONRPCMessage) => Promise<void> | void;
  log?: (line: string) => void;
}

export class Relay {
  private protocolVersion: string | null = null;
  private sessionId: string | null = null;
  /** Tool name → whether the server marked it read-only, from the last `tools/list`. */
  private readOnlyTools = new Map<string, boolean>();

  constructor(private readonly opts: RelayOptions) {
    requireSecureUrl(opts.resource, "the endpoint");
  }

  private retryable(message: Message): boolean {
    if (message.method === "tools/call") {
      const name = message.params?.name;
      return typeof name === "string" && this.readOnlyTools.get(name) === true;
    }
    return RETRYABLE_METHODS.has(message.method ?? "");
  }

  private errorFor(message: Message, code: number, text: string, data: Record<string, unknown> = {}) {
    return {
      jsonrpc: "2.0" as const,
      id: message.id as string | number,
      error: { code, message: text, data },
    };
  }

  /** Handles one message from the host; never throws (errors become JSON-RPC errors). */
  async handle(message: Message): Promise<void> {
    if (!isRequest(message)) {
      // Notifications and answers to the server's requests have no one to report to.
      await this.exchange(message).catch((err) =>
        this.opts.log?.(`could not forward a ${message.method ?? "response"}: ${scrub(String(err))}`),
      );
      return;
    }
    try {
      const answer = await this.request(message);
      this.learn(message, answer);
      await this.opts.deliver(answer);
    } catch (err) {
      const text = err instanceof CliFailure ? err.message : scrub(String((err as Error)?.message ?? err));
      await this.opts.deliver(this.errorFor(message, RELAY_ERRORS.unavailable, text));
    }
  }

  /** Sends a request; delivers what the server sends on the way; returns its answer. */
  private async request(message: Message): Promise<JSONRPCMessage> {
    const write = !this.retryable(message);
    const lost = () =>
      write
        ? this.errorFor(
            message,
            RELAY_ERRORS.outcomeUnknown,
            "the connection to Paperclip broke before its answer arrived: the request may or may not have been carried out (outcome unknown). It was not re-sent. Check its effect before retrying; retry a Paperclip mutation with the same requestId.",
            { outcome: "unknown" },
          )
        : this.errorFor(
            message,
            RELAY_ERRORS.unavailable,
            "the connection to Paperclip broke before its answer arrived",
          );
    let token = await this.opts.tokens.accessToken();
    for (let attempt = 0; ; attempt++) {
      let result: Exchange;
      try {
        result = await this.exchange(message, token);
      } catch (err) {
        if (err instanceof Lost) return lost();
        throw err;
      }
      if (result.kind === "unauthorized") {
        // A 401 is the server's answer before running anything: refresh, then re-send a read once.
        if (attempt > 0)
          throw new CliFailure(
            `Paperclip refused the stored login; run \`paperclipai mcp login --device --url ${this.opts.resource}\` again`,
            EXIT.notLoggedIn,
          );
        token = await this.opts.tokens.refresh(token);
        if (!write) continue;
        return this.errorFor(
          message,
          RELAY_ERRORS.notSent,
          "the stored login had expired, so Paperclip refused the request before running it; the login is now refreshed. The request was not re-sent because it may change data: send it again.",
          { outcome: "not_run" },
        );
      }
      const answer = result.messages.find((m) => !m.method && m.id === message.id);
      for (const m of result.messages) if (m !== answer) await this.opts.deliver(m);
      if (answer) return answer;
      if (result.status >= 200 && result.status < 300) return lost();
      return this.errorFor(message, RELAY_ERRORS.unavailable, `Paperclip answered HTTP ${result.status}`, {
        status: result.status,
      });
    }
  }

  /** Remembers the negotiated protocol version and which tools are read-only. */
  private learn(message: Message, answer: JSONRPCMessage) {
    const result = (answer as { result?: Record<string, unknown> }).result;
    if (!result) return;
    if (message.method === "initialize" && typeof result.protocolVersion === "string")
      this.protocolVersion = result.protocolVersion;
    if (message.method === "tools/list" && Array.isArray(result.tools)) {
      for (const tool of result.tools as { name?: unknown; annotations?: { readOnlyHint?: unknown } }[])
        if (typeof tool.name === "string")
          this.readOnlyTools.set(tool.name, tool.annotations?.readOnlyHint === true);
    }
  }

  /** One POST to the bound resource. Throws `Lost` when the connection breaks before an answer. */
  private async exchange(message: Message, token?: string): Promise<Exchange> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token ?? (await this.opts.tokens.accessToken())}`,
    };
    if (this.protocolVersion) headers["mcp-protocol-version"] = this.protocolVersion;
    if (this.sessionId) headers["mcp-session-id"] = this.sessionId;
    let response: Response;
    try {
      // The bound resource only, never a redirect target (the token must not travel elsewhere).
      response = await fetch(this.opts.resource, {
        method: "POST",
        headers,
        body: JSON.stringify(message),
        redirect: "manual",
      });
    } catch (err) {
      // The request may have reached the server: for a write, its outcome is unknown.
      throw new Lost(scrub(String((err as Error).message)));
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new CliFailure(
        "Paperclip answered with a redirect; the proxy forwards to the bound endpoint only",
        EXIT.failure,
      );
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return { kind: "unauthorized" };
    }
    const session = response.headers.get("mcp-session-id");
    if (session) this.sessionId = session;
    const type = response.headers.get("content-type") ?? "";
    try {
      if (type.includes("text/event-stream"))
        return {
          kind: "messages",
          messages: await this.readEvents(response, message),
          status: response.status,
        };
      const text = await response.text();
      if (!text.trim()) return { kind: "messages", messages: [], status: response.status };
      const parsed = JSON.parse(text) as Message | Message[];
      return {
        kind: "messages",
        messages: Array.isArray(parsed) ? parsed : [parsed],
        status: response.status,
      };
    } catch (err) {
      if (err instanceof SyntaxError && response.status >= 400)
        return { kind: "messages", messages: [], status: response.status };
      throw new Lost(scrub(String((err as Error).message)));
    }
  }

  /** Reads an SSE answer: messages other than the answer are delivered as they arrive. */
  private async readEvents(response: Response, message: Message): Promise<Message[]> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return [];
      buffer += value;
      let end = buffer.search(/\r?\n\r?\n/);
      while (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(buffer.slice(end).match(/^\r?\n\r?\n/)![0].length + end);
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data) {
          const m = JSON.parse(data) as Message;
          if (!m.method && m.id === message.id) {
            await reader.cancel();
            return [m];
          }
          await this.opts.deliver(m);
        }
        end = buffer.search(/\r?\n\r?\n/);
      }
    }
  }
}

/** Serves the relay on stdin/stdout until the host closes stdin. Diagnostics go to stderr. */
export async function runProxy(resource: string, log: (line: string) => void): Promise<void> {
  const tokens = new TokenSource(resource);
  tokens.stored(); // fail fast (exit 3) when there is no login
  const stdio = new StdioServerTransport();
  const relay = new Relay({ resource, tokens, deliver: (m) => stdio.send(m), log });
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  stdio.onmessage = (m) => void relay.handle(m as Message);
  stdio.onerror = (err) => log(`proxy: ${scrub(err.message)}`);
  await stdio.start();
  log(`paperclipai mcp proxy: relaying to ${resource}`);
  await closed;
}
