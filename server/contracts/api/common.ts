// Building blocks of the admin API's response schemas (server/contracts/api/*.ts).
//
// A response schema describes the JSON on the wire. Dates are the one place where the server's
// value and the wire differ: a verb returns a `Date`, `Response.json` writes its ISO string. The
// `IsoDate` codec (zod 4's `z.codec`) says both: its input is the ISO string the browser
// receives, its output the `Date` the verb holds. So for any response schema `S`:
//
//   - `Wire<S>` (= `z.input<S>`) is what the client reads — components' types derive from it;
//   - `Served<S>` (= `z.output<S>`) is what a verb returns — verbs end in `satisfies Served<S>`,
//     so a renamed or retyped field is a type error on the server, not a blank cell in the UI;
//   - `S.parse(json)` checks a real response (the contract test, server/http/contract.int.test.ts).
//
// Objects are not strict: a verb may return more than the contract names (ids the UI does not
// show), never less. Imports only zod (contracts never import db/ or other server folders).
import { z } from "zod";

/** An ISO-8601 instant on the wire, a `Date` on the server. */
export const IsoDate = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (s) => new Date(s),
  encode: (d) => d.toISOString(),
});

/** What the client receives: dates as ISO strings. */
export type Wire<S extends z.ZodType> = z.input<S>;
/** What a server verb returns before `Response.json`: dates as `Date`s. */
export type Served<S extends z.ZodType> = z.output<S>;

/** A nullable instant. */
export const NullableDate = IsoDate.nullable();

/** Any JSON object (a jsonb column the UI shows as it is). */
export const JsonObject = z.record(z.string(), z.unknown());

/** `{ id, name }` of an agent, project, routine… */
export const NamedRef = z.object({ id: z.string(), name: z.string() });

/** Fields of one zod type under the given keys, in that order (spread into `z.object`). */
function fieldsOf<T extends z.ZodType>(type: T) {
  return <const K extends string>(...keys: K[]) =>
    Object.fromEntries(keys.map((k) => [k, type])) as { [P in K]: T };
}

/** Required string fields: `...strings("id", "name")`. */
export const strings = fieldsOf(z.string());
/** Nullable string fields (ids of optional links, free text): `...nullableStrings("runId")`. */
export const nullableStrings = fieldsOf(z.string().nullable());
/** Nullable instants: `...nullableDates("startedAt", "finishedAt")`. */
export const nullableDates = fieldsOf(NullableDate);
/** Required number fields. */
export const numbers = fieldsOf(z.number());
/** Nullable number fields. */
export const nullableNumbers = fieldsOf(z.number().nullable());

/** `createdAt`, `updatedAt` of a row that is edited in place. */
export const Timestamps = { createdAt: IsoDate, updatedAt: IsoDate };
