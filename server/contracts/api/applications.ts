// Responses of `/api/companies/:companyId/tools/applications` (server/tools/applications.ts).
import { z } from "zod";
import { APPLICATION_STATUSES, APPLICATION_TYPES, CONNECTION_STATUSES, RISKS } from "../values";
import { IsoDate, NullableDate } from "./common";

/** An application as `POST /applications` and `PATCH /applications/:id` return it (no counts). */
export const ApplicationRecord = z.object({
  id: z.string(),
  /** Namespace of its tools: agents see `<slug>__<tool>`. */
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(APPLICATION_TYPES),
  status: z.enum(APPLICATION_STATUSES),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  archivedAt: NullableDate.optional(),
});

export const ApplicationToolCounts = z.object({
  total: z.number(),
  quarantined: z.number(),
  byRisk: z.partialRecord(z.enum(RISKS), z.number()),
});

/** One row of `GET /applications`. */
export const Application = ApplicationRecord.extend({
  /** Connection count per connection status; missing statuses mean 0. */
  connections: z.partialRecord(z.enum(CONNECTION_STATUSES), z.number()),
  tools: ApplicationToolCounts,
});

export const ApplicationsResponse = z.object({ applications: z.array(Application) });
