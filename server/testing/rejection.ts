import { ServiceError } from "../errors";

/** What `p` rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

/** The `ServiceError` `p` rejects with; any other outcome fails the test. */
export async function serviceRejection(p: Promise<unknown>): Promise<ServiceError> {
  const err = await rejection(p);
  if (!(err instanceof ServiceError)) throw err;
  return err;
}
