import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { companies, toolApplications, toolConnections } from "@/db/schema";
import { connectionApplicationJoin } from "../connectors/connection";

export type Log = (line: string) => void;
export const silent: Log = () => {};

export interface ConnectionRef {
  companyId: string;
  companyName: string;
  connectionId: string;
  connectionName: string;
  applicationSlug: string;
}

export async function listConnections(db: Db | Tx, companyId?: string) {
  return db
    .select({
      companyId: toolConnections.companyId,
      companyName: companies.name,
      connectionId: toolConnections.id,
      connectionName: toolConnections.name,
      applicationSlug: toolApplications.slug,
      transportConfig: toolConnections.transportConfig,
    })
    .from(toolConnections)
    .innerJoin(companies, eq(companies.id, toolConnections.companyId))
    .innerJoin(toolApplications, connectionApplicationJoin)
    .where(companyId ? eq(toolConnections.companyId, companyId) : undefined)
    .orderBy(asc(companies.name), asc(toolConnections.name));
}

export const label = (c: ConnectionRef) => `${c.companyName} / ${c.connectionName} (${c.connectionId})`;
