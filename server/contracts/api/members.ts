// Responses of `/api/companies/:companyId/members` (server/core/members.ts).
import { z } from "zod";
import { MEMBERSHIP_ROLES } from "../values";
import { IsoDate, strings } from "./common";

export const Member = z.object({
  ...strings("userId", "email"),
  name: z.string().nullable(),
  role: z.enum(MEMBERSHIP_ROLES),
  joinedAt: IsoDate,
  /** The account is switched off (it cannot sign in). */
  disabled: z.boolean(),
  /** False until the person sets a password through their one-time link. */
  passwordSet: z.boolean(),
});

export const MembersResponse = z.object({ members: z.array(Member) });
