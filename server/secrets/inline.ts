/**
 * Strict mode: a connection's transport config holds no credential. Anything that looks like
 * one — a sensitive header or env var with a value, a URL with userinfo or a credential query
 * parameter, a value shaped like a provider token — must become a company secret bound to the
 * connection instead. Findings name the JSON pointer and a reason, never the value.
 */
import { ServiceError } from "../errors";

export type InlineCredentialReason =
  | "sensitive_header"
  | "sensitive_env_var"
  | "sensitive_key"
  | "url_userinfo"
  | "url_query_credential"
  | "token_shaped_value";

export interface InlineCredential {
  /** JSON pointer (RFC 6901) into the config, e.g. `/headers/Authorization`. */
  path: string;
  reason: InlineCredentialReason;
}

/** Where a finding sits, for the migration that moves it into a secret binding. */
export type InlineLocation =
  | { kind: "header_map"; headerName: string; segments: string[] }
  | { kind: "header_list"; headerName: string; segments: string[] }
  | { kind: "env"; envName: string; segments: string[] }
  | { kind: "other"; segments: string[] };

export interface InlineCredentialDetail extends InlineCredential {
  location: InlineLocation;
}

const SENSITIVE_HEADER =
  /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|apikey|credential|private[-_]?key|^x-auth/i;
const SENSITIVE_ENV = /TOKEN|SECRET|PASSW(OR)?D|API_?KEY|PRIVATE_?KEY|CREDENTIAL/i;
/** Keys elsewhere in the config, compared with `-`/`_` removed and lower-cased. */
const SENSITIVE_KEY_EXACT = new Set(["authorization", "cookie", "passwd", "credentials", "credential"]);
const SENSITIVE_KEY_SUFFIX = ["password", "secret", "token", "apikey", "privatekey", "secretkey"];
const URL_CREDENTIAL_PARAMS = new Set([
  "token",
  "access_token",
  "auth_token",
  "private_token",
  "key",
  "api_key",
  "apikey",
  "api-key",
  "secret",
  "client_secret",
  "password",
]);

/** Provider tokens and credential syntaxes, wherever they appear. */
const TOKEN_SHAPES: RegExp[] = [
  /\b(pcb|pca|pcgt)_[A-Za-z0-9_-]{8,}/, // Paperclip keys
  /\b(sk|rk)_(live|test)_[A-Za-z0-9]{8,}/, // Stripe
  /\bsk-(ant-|proj-)?[A-Za-z0-9_-]{20,}/, // OpenAI / Anthropic style
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key ids
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWTs
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

const MAX_DEPTH = 12;

export const looksLikeToken = (value: string): boolean => TOKEN_SHAPES.some((re) => re.test(value));

function sensitiveKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_]/g, "");
  return SENSITIVE_KEY_EXACT.has(k) || SENSITIVE_KEY_SUFFIX.some((s) => k.endsWith(s));
}

function urlReason(value: string): InlineCredentialReason | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.username || url.password) return "url_userinfo";
  for (const [name, v] of url.searchParams) {
    if (v && URL_CREDENTIAL_PARAMS.has(name.toLowerCase())) return "url_query_credential";
  }
  return null;
}

const pointer = (segments: readonly string[]) =>
  segments.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

const HEADER_CONTAINERS = new Set(["headers", "httpheaders", "requestheaders"]);
const ENV_CONTAINERS = new Set(["env", "environment", "envvars"]);
const containerKey = (key: string) => key.toLowerCase().replace(/[-_]/g, "");

/** Every inline credential in `config`, with where it sits. */
export function scanInlineCredentials(config: unknown): InlineCredentialDetail[] {
  const out: InlineCredentialDetail[] = [];
  const add = (segments: string[], reason: InlineCredentialReason, location: InlineLocation): void => {
    out.push({ path: pointer(segments), reason, location });
  };

  const genericString = (value: string, segments: string[], key: string | null): void => {
    if (value.trim() === "") return;
    const url = urlReason(value);
    const reason: InlineCredentialReason | null =
      key !== null && sensitiveKey(key)
        ? "sensitive_key"
        : (url ?? (looksLikeToken(value) ? "token_shaped_value" : null));
    if (reason) add(segments, reason, { kind: "other", segments });
  };

  const headerValue = (name: string, value: unknown, segments: string[], location: InlineLocation) => {
    if (typeof value !== "string" || value.trim() === "") return;
    if (SENSITIVE_HEADER.test(name)) add(segments, "sensitive_header", location);
    else if (looksLikeToken(value)) add(segments, "token_shaped_value", location);
    else {
      const url = urlReason(value);
      if (url) add(segments, url, location);
    }
  };

  const walk = (value: unknown, segments: string[], depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === "string") {
      genericString(value, segments, null);
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, [...segments, String(i)], depth + 1);
      return;
    }
    if (!isObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const here = [...segments, key];
      const container = containerKey(key);
      if (HEADER_CONTAINERS.has(container) && isObject(v)) {
        for (const [name, hv] of Object.entries(v)) {
          const at = [...here, name];
          if (typeof hv === "string")
            headerValue(name, hv, at, { kind: "header_map", headerName: name, segments: at });
          else walk(hv, at, depth + 2);
        }
      } else if (HEADER_CONTAINERS.has(container) && Array.isArray(v)) {
        for (const [i, item] of v.entries()) {
          const at = [...here, String(i)];
          const name = isObject(item) ? (item.name ?? item.key) : undefined;
          if (isObject(item) && typeof name === "string" && typeof item.value === "string") {
            headerValue(name, item.value, [...at, "value"], {
              kind: "header_list",
              headerName: name,
              segments: at,
            });
          } else walk(item, at, depth + 2);
        }
      } else if (ENV_CONTAINERS.has(container) && isObject(v)) {
        for (const [name, ev] of Object.entries(v)) {
          const at = [...here, name];
          if (typeof ev !== "string") {
            walk(ev, at, depth + 2);
            continue;
          }
          if (ev.trim() === "") continue;
          const location: InlineLocation = { kind: "env", envName: name, segments: at };
          if (SENSITIVE_ENV.test(name)) add(at, "sensitive_env_var", location);
          else if (looksLikeToken(ev)) add(at, "token_shaped_value", location);
          else {
            const url = urlReason(ev);
            if (url) add(at, url, location);
          }
        }
      } else if (typeof v === "string") {
        genericString(v, here, key);
      } else {
        walk(v, here, depth + 1);
      }
    }
  };

  walk(config, [], 0);
  return out;
}

/** Credential-looking values inline in a connection's transport config: where and why, never what. */
export function findInlineCredentials(transportConfig: unknown): InlineCredential[] {
  return scanInlineCredentials(transportConfig).map(({ path, reason }) => ({ path, reason }));
}

const REASON_TEXT: Record<InlineCredentialReason, string> = {
  sensitive_header: "a credential header",
  sensitive_env_var: "a credential environment variable",
  sensitive_key: "a credential field",
  url_userinfo: "a URL with a username or password",
  url_query_credential: "a URL with a credential query parameter",
  token_shaped_value: "a value shaped like an access token",
};

/** 400 `inline_secret` for a config with inline credentials. Nothing of the value is echoed. */
export function inlineSecretError(findings: readonly InlineCredential[]): ServiceError {
  const [first] = findings;
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : "";
  return new ServiceError(
    "inline_secret",
    `\`${first?.path || "/"}\` holds ${first ? REASON_TEXT[first.reason] : "a credential"}${more}: ` +
      "store it as a company secret and bind it to the connection",
    { findings: findings.map(({ path, reason }) => ({ path, reason })) },
  );
}

/** Throws 400 `inline_secret` when `config` holds an inline credential. For the connection verbs. */
export function assertNoInlineCredentials(config: unknown): void {
  const findings = findInlineCredentials(config);
  if (findings.length > 0) throw inlineSecretError(findings);
}
