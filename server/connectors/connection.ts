import type { Db, Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { toolApplications, toolConnections } from "@/db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

/** The join of a connection with its application: the same company and its application id. */
export const connectionApplicationJoin = companyRow(
  toolApplications,
  toolConnections.companyId,
  toolConnections.applicationId,
);

/** `{ connection, application }` rows: every connection joined with its application. */
export function selectConnectionsWithApplication(db: Db | Tx | ServiceContext["db"]) {
  return db
    .select({ connection: toolConnections, application: toolApplications })
    .from(toolConnections)
    .innerJoin(toolApplications, connectionApplicationJoin);
}

/** A connection of the company with its application; 404 `not_found` when there is none. */
export async function loadConnection(tx: Tx | ServiceContext["db"], companyId: string, connectionId: string) {
  const [row] = await selectConnectionsWithApplication(tx).where(
    companyRow(toolConnections, companyId, connectionId),
  );
  if (!row) throw notFound("connection");
  return row;
}
