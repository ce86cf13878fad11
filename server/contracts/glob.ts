/**
 * Glob matching for tool-name selectors: `*` matches any run of characters (including none,
 * and including `.`), `?` exactly one character, everything else itself. Linear-time
 * two-pointer matching with single backtrack point — no regular expressions, so a hostile
 * pattern cannot cause catastrophic backtracking. Patterns are capped at 200 characters.
 */
export const MAX_GLOB_LENGTH = 200;

export function isValidGlob(pattern: unknown): pattern is string {
  return typeof pattern === "string" && pattern.length > 0 && pattern.length <= MAX_GLOB_LENGTH;
}

export function globMatch(pattern: string, text: string): boolean {
  if (!isValidGlob(pattern)) return false;
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    // `*` is checked first: a `*` in the text must not consume the pattern's wildcard as a literal.
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}
