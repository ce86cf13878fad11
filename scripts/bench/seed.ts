/**
 * Seeds a large catalog straight into the app's database (SQL, one transaction) for the
 * `tools/list` figure: an application, an active connection, `entries` active catalog entries,
 * `policies` policies of mixed kinds (the mix of scripts/bench-decide.ts: 90% aimed at one
 * entry, 10% glob/risk-wide; a quarter with an argument condition), a profile with the
 * application bound to the company, then one `companies.access_version` bump so every process
 * reloads its snapshot.
 */
import type postgres from "postgres";

export async function seedLargeCatalog(
  sql: postgres.Sql,
  opts: { companyId: string; upstreamUrl: string; entries: number; policies: number; slug?: string },
): Promise<{ applicationId: string; connectionId: string; profileId: string }> {
  const slug = opts.slug ?? "bulk";
  return sql.begin(async (tx) => {
    const [app] = await tx<{ id: string }[]>`
      insert into tool_applications (company_id, slug, name, type, status)
      values (${opts.companyId}, ${slug}, 'Bulk catalog (bench)', 'mcp_http', 'active')
      returning id`;
    const [conn] = await tx<{ id: string }[]>`
      insert into tool_connections (company_id, application_id, name, transport_config, status, enabled,
        health_status, health_checked_at, catalog_refreshed_at, catalog_reviewed_at)
      values (${opts.companyId}, ${app!.id}, 'bulk', ${tx.json({ url: opts.upstreamUrl })}, 'active', true,
        'ok', now(), now(), now())
      returning id`;
    await tx`
      insert into tool_catalog_entries (company_id, connection_id, kind, name, title, description,
        input_schema, annotations, schema_hash, version_hash, risk, status, reviewed_at)
      select ${opts.companyId}, ${conn!.id}, 'tool',
        (array['list','get','create','update','delete'])[i % 5 + 1] || '_thing_' || i,
        'Thing ' || i,
        'Bench tool ' || i || ': operates on a thing of the bulk catalog; arguments are an owner and a title.',
        jsonb_build_object(
          'type', 'object',
          'properties', jsonb_build_object(
            'owner', jsonb_build_object('type', 'string', 'description', 'Owner of the thing'),
            'title', jsonb_build_object('type', 'string', 'description', 'Title of the thing'),
            'limit', jsonb_build_object('type', 'integer', 'minimum', 1, 'maximum', 100)),
          'required', jsonb_build_array('owner')),
        jsonb_build_object('readOnlyHint', i % 3 = 0),
        md5('schema' || i), md5('version' || i),
        (array['read','write','destructive'])[i % 3 + 1],
        'active', now()
      from generate_series(0, ${opts.entries - 1}) as i`;
    const ids = await tx<{ id: string }[]>`
      select id from tool_catalog_entries
      where company_id = ${opts.companyId} and connection_id = ${conn!.id}
      order by (regexp_replace(name, '^.*_', ''))::int`;
    const kinds = ["allow", "block", "require_approval", "redact_result", "rate_limit"] as const;
    const risks = ["read", "write", "destructive"] as const;
    const rows = Array.from({ length: opts.policies }, (_, i) => {
      const kind = kinds[i % kinds.length]!;
      const generic = i < opts.policies * 0.1;
      return {
        company_id: opts.companyId,
        name: `bench policy ${i}`,
        kind,
        priority: i % 50,
        enabled: true,
        selectors: generic
          ? { toolGlobs: [`${slug}.*_thing_${i}*`], risks: [risks[i % 3]!] }
          : { catalogEntryIds: [ids[(i * 7) % ids.length]!.id] },
        conditions: i % 4 === 0 ? { arguments: [{ path: "/owner", op: "equals", value: "acme" }] } : {},
        effect:
          kind === "rate_limit"
            ? { limit: 100, windowSeconds: 60, per: "agent", perTool: false }
            : kind === "redact_result"
              ? { paths: ["/secret"] }
              : {},
      };
    });
    for (const r of rows) {
      await tx`
        insert into tool_policies (company_id, name, kind, priority, enabled, selectors, conditions, effect)
        values (${r.company_id}, ${r.name}, ${r.kind}, ${r.priority}, ${r.enabled}, ${tx.json(r.selectors)},
          ${tx.json(r.conditions)}, ${tx.json(r.effect)})`;
    }
    const [profile] = await tx<{ id: string }[]>`
      insert into tool_profiles (company_id, name, description)
      values (${opts.companyId}, 'Bulk catalog (bench)', 'Seeded by npm run bench')
      returning id`;
    await tx`
      insert into tool_profile_entries (company_id, profile_id, mode, selector_type, application_id)
      values (${opts.companyId}, ${profile!.id}, 'include', 'application', ${app!.id})`;
    await tx`
      insert into tool_profile_bindings (company_id, profile_id, target_type)
      values (${opts.companyId}, ${profile!.id}, 'company')`;
    await tx`update companies set access_version = access_version + 1 where id = ${opts.companyId}`;
    return { applicationId: app!.id, connectionId: conn!.id, profileId: profile!.id };
  });
}

/**
 * A company that has been working for a while: `invocations` past ledger rows with three audit
 * events each, then ANALYZE. A benchmark on freshly created, never-analysed tables measures
 * something no running install has: PostgreSQL caches generic plans (and its foreign-key check
 * plans) per connection while the tables hold a handful of rows, and without statistics it
 * may pick `tool_invocations_company_created_idx` and filter on `id` — a scan of the company's
 * whole ledger on every key lookup until autovacuum's first ANALYZE (autovacuum_naptime, one
 * minute, so never within a short window). ANALYZE also invalidates the plans already cached.
 */
export async function seedLedgerHistory(
  sql: postgres.Sql,
  opts: { companyId: string; invocations: number },
): Promise<void> {
  await sql`
    with inv as (
      insert into tool_invocations
        (company_id, actor_type, actor_id, tool_name, args_hash, decision, reason_code,
         execution_status, latency_ms, created_at, started_at, completed_at, updated_at)
      select ${opts.companyId}, 'gateway_session', 'history', 'history__tool', md5(g::text), 'allow', 'allowed',
        'succeeded', 5, now() - make_interval(secs => g), now() - make_interval(secs => g),
        now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, ${opts.invocations}) g
      returning id, created_at
    )
    insert into tool_call_events (company_id, event_type, actor_type, actor_id, invocation_id, tool_name, decision, reason_code, created_at)
    select ${opts.companyId}, t.event_type, 'gateway_session', 'history', inv.id, 'history__tool', 'allow', 'ok', inv.created_at
    from inv cross join (values ('decision'), ('execution_started'), ('result_returned')) t(event_type)`;
  await sql`analyze`;
}
