// Structured server logging. Every line passes through `redactText`, so a token or key that
// ends up in an error message never reaches the log in the clear.

const TOKEN_PATTERNS: RegExp[] = [
  /\b(pcb|pca|pcgt)_[A-Za-z0-9_-]{8,}/g, // our own tokens
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

export function logError(event: string, err: unknown, fields: Record<string, unknown> = {}) {
  const e =
    err instanceof Error
      ? { name: err.name, message: err.message, stack: err.stack }
      : { message: String(err) };
  write("error", event, { ...fields, error: e });
}
