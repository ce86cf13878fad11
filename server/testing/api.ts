import { encode } from "next-auth/jwt";

type Handler = (
  request: Request,
  context?: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  /** Sent verbatim (for malformed-JSON tests). */
  rawBody?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  json: T;
  headers: Headers;
}

/** Invokes a route handler exactly as Next.js would, with a real Request. */
export async function call<T = Record<string, unknown>>(
  handler: Handler,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(path, "http://localhost:3100");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(opts.headers);
  if (!headers.has("host")) headers.set("host", "localhost:3100");
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const response = await handler(new Request(url, { method, headers, body }), {
    params: Promise.resolve(opts.params ?? {}),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
}

/** A next-auth session cookie for a user, signed with the test AUTH_SECRET. */
export async function sessionCookie(userId: string, email: string): Promise<string> {
  const secret = process.env.AUTH_SECRET!;
  const salt = "authjs.session-token";
  const jwt = await encode({ token: { sub: userId, email }, secret, salt });
  return `${salt}=${jwt}`;
}
