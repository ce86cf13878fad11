/**
 * One error hierarchy for the whole product. `code` is stable API (snake_case) and names an
 * entry of the catalogue (./codes.ts); `status`, the HTTP mapping, is looked up there — decided
 * in the catalogue and nowhere else.
 */
import { type AlternateStatus, type ConflictCode, ERRORS, type ErrorCode } from "./codes";

export { type AlternateStatus, type ConflictCode, ERRORS, type ErrorCode } from "./codes";

const SERVICE_ERROR = Symbol.for("paperclip.ServiceError");

export class ServiceError extends Error {
  /**
   * A registry symbol, not only the class, identifies service errors: the gateway's node
   * listener loads `server/` outside the Next.js bundle, so two copies of this class can meet
   * in one process (sharing the process-wide singletons kept on globalThis).
   */
  readonly [SERVICE_ERROR] = true;
  /** The catalogue's status for `code` (500 for a code the catalogue lacks: a bug, never a 2xx). */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ServiceError";
    this.status = (ERRORS as Record<string, { status: number } | undefined>)[code]?.status ?? 500;
  }

  /** A code's documented second status (its catalogue entry's `also`), e.g. 403 `invalid_credentials`. */
  static withStatus<C extends ErrorCode>(
    code: C,
    status: AlternateStatus<C>,
    message: string,
    details?: Record<string, unknown>,
  ): ServiceError {
    const err = new ServiceError(code, message, details);
    (err as { status: number }).status = status;
    return err;
  }
}

/** 400: the request is malformed or fails validation. Nothing was changed. */
export const invalidRequest = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("invalid_request", message, details);

/** 401: no valid credential was presented. */
export const unauthenticated = (message = "authentication required") =>
  new ServiceError("unauthenticated", message);

/**
 * 403: the caller is known but may not do this. Only used once the caller may know the
 * target exists (e.g. a member lacking a role); otherwise use notFound.
 */
export const forbidden = (message = "you do not have permission to do this") =>
  new ServiceError("forbidden", message);

/** 404: unknown id, or an id of a company the caller does not belong to (reveals nothing). */
export const notFound = (entity = "resource") => new ServiceError("not_found", `${entity} not found`);

/** 409: the request conflicts with current state (duplicate name, wrong lifecycle state). */
export const conflict = (code: ConflictCode, message: string, details?: Record<string, unknown>) =>
  new ServiceError(code, message, details);

/** 413: the body is larger than the route accepts. */
export const payloadTooLarge = (limit: number) =>
  new ServiceError("payload_too_large", `request body exceeds ${limit} bytes`);

export const isServiceError = (err: unknown): err is ServiceError =>
  err instanceof ServiceError ||
  (err instanceof Error && (err as unknown as Record<symbol, unknown>)[SERVICE_ERROR] === true);

/** PostgreSQL error codes we translate into client errors instead of 500s. */
export function fromDatabaseError(err: unknown): ServiceError | null {
  const e = err as { code?: string; constraint_name?: string; cause?: unknown };
  const pg = e?.code ? e : (e?.cause as { code?: string; constraint_name?: string } | undefined);
  if (!pg?.code) return null;
  switch (pg.code) {
    case "23505": // unique_violation
      return conflict("already_exists", "a record with the same unique value already exists", {
        constraint: pg.constraint_name,
      });
    case "23503": // foreign_key_violation: a referenced id is unknown or in another company
      return new ServiceError("not_found", "a referenced record was not found");
    case "23514": // check_violation
      return invalidRequest("the value violates a constraint", { constraint: pg.constraint_name });
    case "22P02": // invalid_text_representation (e.g. malformed uuid)
      return invalidRequest("a value has the wrong format");
    case "22P05": // untranslatable_character (NUL in jsonb)
    case "22021": // character_not_in_repertoire (NUL in text)
      // Defence in depth: request bodies are refused before this (server/http/route.ts); the
      // test-only mutation switch turns both off to prove the fuzz suite finds the 500.
      if (process.env.NODE_ENV === "test" && process.env.PAPERCLIP_TEST_MUTATION === "nul_500") return null;
      return invalidRequest(
        "a value holds text that cannot be stored (a NUL character or an unpaired surrogate)",
      );
    default:
      return null;
  }
}
