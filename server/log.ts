// Structured server logging. Every line passes through `redactText`, so a token or key that
// ends up in an error message never reaches the log in the clear.

const TOKEN_PATTERNS: RegExp[] = [
  /\b(pcb|pca|pcgt|pcs|pcp|pcex|pcoa|pcor|pcoc|pcod)_[A-Za-z0-9_-]{8,}/g, // our own tokens (incl. OAuth)
  /\bBearer\s+[A-Za-z0-9._~+/-]+=*/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
  /(postgres(?:ql)?:\/\/[^:/\s]+:)[^@\s]+@/gi, // database passwords in URLs
];

export function redactText(text: string): string {
  let out = text;
  for (const re of TOKEN_PATTERNS) {
    out = out.replace(re, (match, p1) =>
      typeof p1 === "string" && match.startsWith(p1) && p1.includes("://")
        ? `${p1}[redacted]@`
        : "[redacted]",
    );
  }
  return out;
}

function write(level: "info" | "warn" | "error", event: string, fields: Record<string, unknown>) {
  const line = redactText(JSON.stringify({ level, event, time: new Date().toISOString(), ...fields }));
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const logInfo = (event: string, fields: Record<string, unknown> = {}) => write("info", event, fields);
export const logWarn = (event: string, fields: Record<string, unknown> = {}) => write("warn", event, fields);

/** PostgreSQL's facts about a failed statement: never its text or parameters. */
interface PgFacts {
  code?: string;
  severity?: string;
  table_name?: string;
  constraint_name?: string;
  routine?: string;
}

function pgFacts(err: unknown): PgFacts | null {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; i++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) {
      const p = e as PgFacts;
      return {
        code: p.code,
        severity: p.severity,
        table_name: p.table_name,
        constraint_name: p.constraint_name,
        routine: p.routine,
      };
    }
    e = e.cause as typeof e;
  }
  return null;
}

/** postgres.js and socket errors carry a code such as `CONNECT_TIMEOUT` or `ECONNREFUSED`. */
const CLIENT_CODE = /^[A-Z][A-Z_]{2,40}$/;

/**
 * Drizzle's `Failed query: <sql>\nparams: <values>` (and any error whose message or stack
 * carries SQL parameters) is logged as the statement's first words and PostgreSQL's error
 * code only: parameters hold key hashes, names and user text, and never reach a log line.
 * The `cause` chain is followed (a few levels): a PostgreSQL error in it is logged as its
 * facts only (its message can quote a value), any other cause with its name, code and message.
 */
function describeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err).slice(0, 500) };
  const cause = err.cause !== undefined && depth < 4 ? { cause: describeError(err.cause, depth + 1) } : {};
  const code = (err as { code?: unknown }).code;
  const own = depth > 0 && /^[0-9A-Z]{5}$/.test(String(code)) ? pgFacts(err) : null;
  if (own) return { name: err.name, pg: own, ...cause };
  const failed = /^Failed query: /.test(err.message) || /\nparams: /.test(err.message);
  const codeField = typeof code === "string" && CLIENT_CODE.test(code) ? { code } : {};
  if (!failed) {
    if (depth > 0) return { name: err.name, ...codeField, message: err.message.slice(0, 500), ...cause };
    return { name: err.name, ...codeField, message: err.message, stack: err.stack, ...cause };
  }
  const statement = /^Failed query: (\w+(?:\s+\w+)?(?:\s+"?[\w.]+"?)?)/.exec(err.message)?.[1] ?? "statement";
  const pg = pgFacts(err);
  return {
    name: err.name,
    message: `failed query (${statement}…; text and parameters withheld)`,
    ...(pg ? { pg } : {}),
    // The stack's frames, without the message lines that repeat the query.
    stack: err.stack
      ?.split("\n")
      .filter((l) => /^\s+at /.test(l))
      .join("\n"),
    ...cause,
  };
}

export function logError(event: string, err: unknown, fields: Record<string, unknown> = {}) {
  write("error", event, { ...fields, error: describeError(err) });
}
