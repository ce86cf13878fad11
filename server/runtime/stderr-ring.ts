/**
 * A slot's stderr: split into lines, redacted (known token shapes and the slot's own secret
 * values) before it is stored, and bounded by lines and bytes (oldest dropped first). It is
 * only ever shown to administrators on the slot's health view — never added to tool results.
 */
import { StringDecoder } from "node:string_decoder";
import { secretSpellings } from "../audit/secret-spellings";
import { redactText } from "../log";

/** A line longer than this is cut (and the rest dropped up to the next newline). */
const MAX_LINE_BYTES = 4096;
/** The forms in which a secret may appear in text: the one list of `audit/secret-spellings.ts`. */
export function secretForms(values: readonly string[]): string[] {
  return secretSpellings(values);
}

export function scrubSecrets(text: string, forms: readonly string[]): string {
  let out = text;
  for (const s of forms) if (out.includes(s)) out = out.split(s).join("[redacted]");
  return out;
}

export class StderrRing {
  private readonly lines: string[] = [];
  private bytes = 0;
  private partial = "";
  private discarding = false;
  private readonly decoder = new StringDecoder("utf8");
  private readonly forms: string[];
  /** Lines dropped from the front to stay within the bounds. */
  dropped = 0;

  constructor(
    secretValues: readonly string[],
    private readonly maxLines = 200,
    private readonly maxBytes = 64 * 1024,
  ) {
    this.forms = secretForms(secretValues);
  }

  write(chunk: Buffer | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    let rest = text;
    for (;;) {
      const nl = rest.indexOf("\n");
      if (nl < 0) break;
      const piece = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (this.discarding) {
        this.discarding = false;
        this.partial = "";
        continue;
      }
      this.push(this.partial + piece);
      this.partial = "";
    }
    if (this.discarding) return;
    this.partial += rest;
    if (Buffer.byteLength(this.partial, "utf8") > MAX_LINE_BYTES) {
      this.push(`${this.partial} …[line cut]`);
      this.partial = "";
      this.discarding = true;
    }
  }

  /** Flushes a trailing line without a newline (the process exited). */
  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = "";
    if (rest && !this.discarding) this.push(rest);
    this.discarding = false;
  }

  private push(raw: string): void {
    let line = redactText(scrubSecrets(raw.replace(/\r$/, ""), this.forms));
    if (Buffer.byteLength(line, "utf8") > MAX_LINE_BYTES) {
      line = `${Buffer.from(line, "utf8")
        .subarray(0, MAX_LINE_BYTES)
        .toString("utf8")
        .replace(/\uFFFD+$/, "")} …[line cut]`;
    }
    const size = Buffer.byteLength(line, "utf8") + 1;
    this.lines.push(line);
    this.bytes += size;
    while (this.lines.length > this.maxLines || (this.bytes > this.maxBytes && this.lines.length > 0)) {
      const old = this.lines.shift()!;
      this.bytes -= Buffer.byteLength(old, "utf8") + 1;
      this.dropped++;
    }
  }

  /** The stored lines, oldest first (already redacted). */
  snapshot(): string[] {
    return [...this.lines];
  }

  /** The last `n` lines joined, for the slot row and error details. */
  tail(n = 50, maxBytes = 16 * 1024): string {
    const out: string[] = [];
    let size = 0;
    for (let i = this.lines.length - 1; i >= 0 && out.length < n; i--) {
      const line = this.lines[i]!;
      size += Buffer.byteLength(line, "utf8") + 1;
      if (size > maxBytes) break;
      out.unshift(line);
    }
    return out.join("\n");
  }

  get byteSize(): number {
    return this.bytes;
  }

  get lineCount(): number {
    return this.lines.length;
  }
}
