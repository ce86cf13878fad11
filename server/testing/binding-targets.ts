/**
 * Env var names a secret binding must refuse (the runtime's own denylist, issue 14): shared by
 * the unit test of `checkBindingTarget` and the binding route's integration test, so both
 * check the same names.
 */
export const DENIED_ENV_TARGETS = [
  "BASH_ENV",
  "NODE_PATH",
  "PYTHONSTARTUP",
  "GLIBC_TUNABLES",
  "DATABASE_URL",
  "AUTH_SECRET",
  "PAPERCLIP_HOME",
] as const;
