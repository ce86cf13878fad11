/**
 * What a slot process is started with: a resolved absolute command, literal arguments and an
 * environment built from scratch — never the server's own environment.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Environment variable names a template may list (and secrets may target). */
export const ENV_KEY = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * Names that change how a process (or its loader / interpreter) runs, and the server's own
 * configuration and credentials: never passed to a slot, whatever a template says.
 */
const FORBIDDEN_ENV_KEYS: RegExp[] = [
  /^PATH$/,
  /^LD_/,
  /^DYLD_/,
  /^NODE_OPTIONS$/,
  /^NODE_PATH$/,
  /^NODE_TLS_REJECT_UNAUTHORIZED$/,
  /^NODE_REPL_EXTERNAL_MODULE$/,
  /^PYTHON(PATH|HOME|STARTUP|INSPECT|USERBASE)$/,
  /^PERL5(LIB|OPT)$/,
  /^PERLLIB$/,
  /^RUBY(LIB|OPT)$/,
  /^JAVA_TOOL_OPTIONS$/,
  /^_JAVA_OPTIONS$/,
  /^JDK_JAVA_OPTIONS$/,
  /^BASH_ENV$/,
  /^ENV$/,
  /^BASH_FUNC_/,
  /^SHELLOPTS$/,
  /^BASHOPTS$/,
  /^PS4$/,
  /^IFS$/,
  /^PROMPT_COMMAND$/,
  /^GCONV_PATH$/,
  /^MALLOC_/,
  /^GLIBC_TUNABLES$/,
  /^PAPERCLIP_/,
  /^DATABASE_URL$/,
  /^AUTH_/,
  /^NEXTAUTH_/,
];

export const MAX_ENV_KEYS = 64;
export const MAX_ARGS = 64;
export const MAX_ARG_BYTES = 4096;

/** Why a name may not be used, or null when it may. */
export function envKeyProblem(key: string): string | null {
  if (!ENV_KEY.test(key)) return "must match `^[A-Z_][A-Z0-9_]{0,63}$`";
  if (FORBIDDEN_ENV_KEYS.some((re) => re.test(key)))
    return "changes how the process runs or belongs to the server; it is never passed to a slot";
  return null;
}

/** Why an argument may not be used, or null when it may. */
export function argProblem(arg: string): string | null {
  if (arg.includes("\0")) return "contains a NUL character";
  if (Buffer.byteLength(arg, "utf8") > MAX_ARG_BYTES) return `is longer than ${MAX_ARG_BYTES} bytes`;
  return null;
}

/** The `PATH` every slot gets: the command's own directory, then the system directories. */
export const SAFE_PATH_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

export function safePath(command: string): string {
  const dirs = [path.dirname(command), ...SAFE_PATH_DIRS];
  return [...new Set(dirs)].join(":");
}

/** Interpreters a template may name without a path; resolved through PATH when it is created. */
export const ALLOWED_INTERPRETERS = ["node", "npx", "python3", "uvx"] as const;

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type CommandCheck = { ok: true; command: string } | { ok: false; message: string };

/**
 * Validates a template command and returns the absolute path to store: an absolute path to
 * an existing executable file (not world-writable), or an allow-listed interpreter name
 * resolved through `searchPath` (the server's PATH) now, once.
 */
export function resolveCommand(command: string, searchPath = process.env.PATH ?? ""): CommandCheck {
  if (command.includes("\0")) return { ok: false, message: "the command contains a NUL character" };
  if (command.length === 0 || command.length > 4096)
    return { ok: false, message: "the command is empty or too long" };
  if (!command.includes("/")) {
    if (!(ALLOWED_INTERPRETERS as readonly string[]).includes(command)) {
      return {
        ok: false,
        message: `a bare command must be one of ${ALLOWED_INTERPRETERS.join(", ")}; otherwise give an absolute path`,
      };
    }
    for (const dir of searchPath.split(":")) {
      if (!dir || !path.isAbsolute(dir)) continue; // relative PATH entries are ignored
      const candidate = path.join(dir, command);
      if (isExecutableFile(candidate)) return checkAbsolute(candidate);
    }
    return { ok: false, message: `\`${command}\` was not found on the server's PATH` };
  }
  if (!path.isAbsolute(command)) return { ok: false, message: "the command must be an absolute path" };
  return checkAbsolute(path.normalize(command));
}

function checkAbsolute(p: string): CommandCheck {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(p);
  } catch {
    return { ok: false, message: `\`${p}\` does not exist` };
  }
  if (!st.isFile()) return { ok: false, message: `\`${p}\` is not a regular file` };
  if (!isExecutableFile(p)) return { ok: false, message: `\`${p}\` is not executable` };
  if (st.mode & 0o002) return { ok: false, message: `\`${p}\` is world-writable` };
  return { ok: true, command: p };
}

/** The stored command is still an executable file (checked again before every start). */
export function commandStillUsable(command: string): boolean {
  return path.isAbsolute(command) && isExecutableFile(command);
}

/**
 * The complete environment of a slot process: the template's allowed keys copied from the
 * host environment when set there, the secrets projected for the slot, and a fixed PATH.
 * Nothing else of `hostEnv` is passed.
 */
export function buildChildEnv(
  command: string,
  allowedEnvKeys: readonly string[],
  secretEnv: Record<string, string>,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of allowedEnvKeys) {
    if (envKeyProblem(key)) continue; // a stored template is validated; this is a backstop
    const value = hostEnv[key];
    if (typeof value === "string" && !value.includes("\0")) env[key] = value;
  }
  for (const [key, value] of Object.entries(secretEnv)) {
    const problem = envKeyProblem(key);
    if (problem) throw new Error(`secret environment variable \`${key}\` ${problem}`);
    if (value.includes("\0")) throw new Error(`secret environment variable \`${key}\` contains NUL`);
    env[key] = value;
  }
  env.PATH = safePath(command);
  return env;
}
