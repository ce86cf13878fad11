import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { dummyPasswordHash, verifyPassword } from "./password";

export const SignInInput = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
});

/**
 * Checks email + password. Unknown users are checked against a dummy hash so the response
 * time does not reveal which emails have accounts. Disabled users cannot sign in.
 */
export async function verifyCredentials(
  db: Db,
  raw: unknown,
): Promise<{ id: string; email: string; name: string | null } | null> {
  const parsed = SignInInput.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok || user.disabledAt) return null;
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  return { id: user.id, email: user.email, name: user.name };
}
