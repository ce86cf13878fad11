// Imports nothing: the `paperclipai mcp` CLI (server/cli) canonicalises its --url with the
// same function the authorization server checks `resource` with, without loading the server.
/**
 * RFC 8707 canonical form of a resource indicator: lowercase scheme and host, no trailing
 * slash, no fragment, no user or password. Null for anything that is not an absolute http(s) URL.
 */
export function canonicalResource(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  // RFC 8707 §2: no fragment (an empty `#` included, which URL drops) and no userinfo at all.
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.hash || value.includes("#") || url.username || url.password) return null;
  const path = url.pathname.replace(/\/+$/, "");
  // URL already lowercases the scheme and host and drops a default port.
  return `${url.origin}${path}${url.search}`;
}
