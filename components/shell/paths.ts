/** True when `path` is `href` or below it. */
export function isActivePath(path: string, href: string): boolean {
  const clean = path.split(/[?#]/)[0]?.replace(/\/+$/, "") ?? "";
  return clean === href || clean.startsWith(`${href}/`);
}
