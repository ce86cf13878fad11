import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { toolApplications, toolConnections } from "@/db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

/** A connection of the company with its application; 404 `not_found` when there is none. */
export async function loadConnection(tx: Tx | ServiceContext["db"], companyId: string, connectionId: string) {
  const [row] = await tx
    .select({ connection: toolConnections, application: toolApplications })
    .from(toolConnections)
    .innerJoin(
      toolApplications,
      and(
        eq(toolApplications.companyId, toolConnections.companyId),
        eq(toolApplications.id, toolConnections.applicationId),
      ),
    )
    .where(and(eq(toolConnections.companyId, companyId), eq(toolConnections.id, connectionId)));
  if (!row) throw notFound("connection");
  return row;
}
