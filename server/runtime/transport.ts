/**
 * An MCP client transport over the stdio of a child process that the supervisor spawned
 * itself. The SDK's `StdioClientTransport` spawns its own child (merging a default inherited
 * environment, with no way to start a new process group), so the supervisor spawns the
 * process and hands this transport its pipes.
 */
import type { ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly readBuffer: ReadBuffer;
  private started = false;
  private closed = false;

  constructor(
    private readonly child: ChildProcess,
    maxMessageBytes: number,
    /** A message larger than the bound desynchronises the stream: the slot must be replaced. */
    private readonly onFatal: (error: Error) => void,
  ) {
    this.readBuffer = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("ChildStdioTransport already started");
    this.started = true;
    const { stdout, stdin } = this.child;
    if (!stdout || !stdin) throw new Error("the child process has no stdio pipes");
    stdout.on("data", (chunk: Buffer) => {
      if (this.closed) return;
      try {
        this.readBuffer.append(chunk);
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.onerror?.(error);
        this.onFatal(error);
        return;
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.readBuffer.readMessage();
        } catch (err) {
          // A line that is not a JSON-RPC message: reported, skipped.
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    stdout.on("error", (err) => this.onerror?.(err));
    stdin.on("error", (err) => this.onerror?.(err));
    stdout.once("close", () => this.finish());
    this.child.once("exit", () => this.finish());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child.stdin;
      if (this.closed || !stdin || stdin.destroyed || !stdin.writable) {
        reject(new Error("Not connected"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the protocol stream. Stopping the process is the supervisor's job. */
  async close(): Promise<void> {
    try {
      this.child.stdin?.end();
    } catch {
      // already closed
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.readBuffer.clear();
    this.onclose?.();
  }
}
