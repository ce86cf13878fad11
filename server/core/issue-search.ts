/**
 * Bounded issue search and issue references for the public MCP directory tools
 * (`paperclip_search_tasks`, `paperclip_read_task`; docs/public-mcp.md, "Tools"). Reads only:
 * the caller needs `company:read` in the company, and nothing outside it is ever matched.
 */
import { and, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { companies, issues } from "@/db/schema";
import { ISSUE_STATUSES } from "@/server/contracts/values";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { issueQuery } from "./issues";

export const SearchIssuesQuery = z.object({
  /** Words of the title, or an identifier (`ACME-12`) or part of one. */
  query: z.string().trim().max(200).optional(),
  status: z.enum(ISSUE_STATUSES).optional(),
  assigneeAgentId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  limit: z.number().int().min(1).max(50).default(20),
  offset: z.number().int().min(0).max(10_000).default(0),
});
export type SearchIssuesQuery = z.infer<typeof SearchIssuesQuery>;

/** `text` as a literal ILIKE pattern: `%`, `_` and the escape character itself match only themselves. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const identifier = sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`;

function searchWhere(companyId: string, q: SearchIssuesQuery): SQL {
  const conds: (SQL | undefined)[] = [];
  if (q.status) conds.push(eq(issues.status, q.status));
  if (q.assigneeAgentId) conds.push(eq(issues.assigneeAgentId, q.assigneeAgentId));
  if (q.projectId) conds.push(eq(issues.projectId, q.projectId));
  if (q.query) {
    const pattern = `%${likeLiteral(q.query)}%`;
    conds.push(or(ilike(issues.title, pattern), ilike(identifier, pattern)));
  }
  return inCompany(issues, companyId, ...conds);
}

/**
 * One page of a company's issues (most recently updated first) matching the filters, with the
 * total count and the next page's offset (null on the last page).
 */
export async function searchIssues(ctx: ServiceContext, companyId: string, input: SearchIssuesQuery) {
  await requireCompany(ctx, companyId, "company:read");
  const q = SearchIssuesQuery.parse(input);
  const where = searchWhere(companyId, q);
  const [rows, [totals]] = await Promise.all([
    issueQuery(ctx)
      .where(where)
      .orderBy(desc(issues.updatedAt), desc(issues.id))
      .limit(q.limit)
      .offset(q.offset),
    ctx.db
      .select({ total: count() })
      .from(issues)
      .innerJoin(companies, eq(companies.id, issues.companyId))
      .where(where),
  ]);
  const total = totals?.total ?? 0;
  const next = q.offset + rows.length;
  return { issues: rows, total, offset: q.offset, limit: q.limit, nextOffset: next < total ? next : null };
}

const IDENTIFIER = /^([A-Za-z][A-Za-z0-9]{0,19})-(\d{1,9})$/;

/**
 * The id of the company's issue named by `ref`: its UUID, or its identifier (`ACME-12`, the
 * company's prefix, any case). An issue of another company, like a missing one, is 404.
 */
export async function resolveIssueRef(ctx: ServiceContext, companyId: string, ref: string): Promise<string> {
  await requireCompany(ctx, companyId, "company:read", "issue");
  let where: SQL | undefined;
  if (z.uuid().safeParse(ref).success) where = companyRow(issues, companyId, ref);
  else {
    const m = IDENTIFIER.exec(ref.trim());
    if (m)
      where = and(
        inCompany(issues, companyId, eq(issues.number, Number(m[2]))),
        sql`upper(${companies.issuePrefix}) = ${m[1]!.toUpperCase()}`,
      );
  }
  if (!where) throw notFound("issue");
  const [row] = await ctx.db
    .select({ id: issues.id })
    .from(issues)
    .innerJoin(companies, eq(companies.id, issues.companyId))
    .where(where)
    .limit(1);
  if (!row) throw notFound("issue");
  return row.id;
}
