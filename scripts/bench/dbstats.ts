/**
 * Database work per governed call, from PostgreSQL's own counters (no statement logging):
 * `pg_stat_database` (transactions, tuples), `pg_stat_user_tables` (scans, inserts, updates
 * per table), `pg_stat_wal` (WAL records, full-page images and bytes: cluster-wide, so the
 * background subtraction matters most there) and, when the server preloads it,
 * `pg_stat_statements` (statements).
 *
 * The cumulative statistics of other backends reach the shared counters when those backends
 * flush them: at a transaction end at most once a second, else after about 10 s idle. So a
 * reading is taken only after the app has been quiet for `STATS_SETTLE_MS`.
 */
import type postgres from "postgres";

export const STATS_SETTLE_MS = 11_500;

export interface TableCounters {
  seq_scan: number;
  idx_scan: number;
  n_tup_ins: number;
  n_tup_upd: number;
  n_tup_del: number;
}

export interface DbCounters {
  db: {
    xact_commit: number;
    xact_rollback: number;
    tup_returned: number;
    tup_fetched: number;
    tup_inserted: number;
    tup_updated: number;
    tup_deleted: number;
  };
  tables: Record<string, TableCounters>;
  /** `pg_stat_wal` (PostgreSQL 14+; null when unreadable). */
  wal: { records: number; fpi: number; bytes: number } | null;
  /** Normalised query text → calls (only when pg_stat_statements is available). */
  statements: Record<string, number> | null;
  /** Normalised query text → total execution time in ms inside the server. */
  statementMs: Record<string, number> | null;
}

export async function pgssAvailable(sql: postgres.Sql): Promise<boolean> {
  const [row] = await sql<{ loaded: boolean }[]>`
    select current_setting('shared_preload_libraries') ilike '%pg_stat_statements%' as loaded`;
  if (!row?.loaded) return false;
  await sql`create extension if not exists pg_stat_statements`;
  return true;
}

/**
 * One reading. Costs the reading backend exactly two transactions when statements are read
 * (statements first, then the counters), else one.
 */
export async function readCounters(sql: postgres.Sql, withStatements: boolean): Promise<DbCounters> {
  let statements: Record<string, number> | null = null;
  let statementMs: Record<string, number> | null = null;
  if (withStatements) {
    const rows = await sql<{ query: string; calls: string; ms: number }[]>`
      select query, calls, total_exec_time + total_plan_time as ms from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not ilike '%pg_stat%' and query not ilike '%pg_database%'`;
    statements = {};
    statementMs = {};
    for (const r of rows) {
      statements[r.query] = (statements[r.query] ?? 0) + Number(r.calls);
      statementMs[r.query] = (statementMs[r.query] ?? 0) + Number(r.ms);
    }
  }
  // One statement (one transaction of the reading backend, counted by the caller).
  const [row] = await sql<
    {
      db: DbCounters["db"];
      tables: (TableCounters & { relname: string })[] | null;
      wal: { records: string; fpi: string; bytes: string } | null;
    }[]
  >`
    select
      (select row_to_json(w) from (
        select wal_records as records, wal_fpi as fpi, wal_bytes as bytes from pg_stat_wal) w) as wal,
      (select row_to_json(d) from (
        select xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted
        from pg_stat_database where datname = current_database()) d) as db,
      (select json_agg(t) from (
        select relname, coalesce(seq_scan, 0) as seq_scan, coalesce(idx_scan, 0) as idx_scan,
          n_tup_ins, n_tup_upd, n_tup_del
        from pg_stat_user_tables) t) as tables`;
  const tables: Record<string, TableCounters> = {};
  for (const t of row?.tables ?? []) {
    tables[t.relname] = {
      seq_scan: Number(t.seq_scan),
      idx_scan: Number(t.idx_scan),
      n_tup_ins: Number(t.n_tup_ins),
      n_tup_upd: Number(t.n_tup_upd),
      n_tup_del: Number(t.n_tup_del),
    };
  }
  const db = Object.fromEntries(Object.entries(row!.db).map(([k, v]) => [k, Number(v)])) as DbCounters["db"];
  const w = row?.wal;
  const wal = w ? { records: Number(w.records), fpi: Number(w.fpi), bytes: Number(w.bytes) } : null;
  return { db, tables, wal, statements, statementMs };
}

export interface PerCall {
  calls: number;
  commitsPerCall: number;
  rollbacksPerCall: number;
  tuples: { returned: number; fetched: number; inserted: number; updated: number; deleted: number };
  tables: { table: string; seqScan: number; idxScan: number; ins: number; upd: number }[];
  statementsPerCall: number | null;
  /** WAL written per call (records, full-page images, bytes); null when not readable. */
  wal: { records: number; fpi: number; bytes: number } | null;
  /** BEGIN/COMMIT/ROLLBACK excluded. */
  dataStatementsPerCall: number | null;
  /** Per statement: executions per call and server time (plan + execute) per execution. */
  topStatements: { query: string; perCall: number; msPerExecution: number | null }[];
  /**
   * The app's own background work (event worker, lease sweeps…) measured over a quiet interval
   * just before, and subtracted from the figures above in proportion to the window's length.
   * `statementsPerCall` and `commitsPerCall` with it left in: `raw`.
   */
  background: {
    seconds: number;
    statementsPerSecond: number | null;
    commitsPerSecond: number;
    raw: { statementsPerCall: number | null; commitsPerCall: number };
  } | null;
}

/** A quiet interval's readings (no calls in between) and the measured window's length. */
export interface Background {
  before: DbCounters;
  after: DbCounters;
  /** Quiet interval and measured window, in ms. */
  quietMs: number;
  windowMs: number;
}

/**
 * `after` less the background's share of the window: every counter's quiet-interval delta
 * (without the reading's own `benchXacts` transactions), scaled to the window's length.
 */
function withoutBackground(after: DbCounters, bg: Background, benchXacts: number): DbCounters {
  const f = bg.windowMs / bg.quietMs;
  const db = { ...after.db };
  for (const k of Object.keys(db) as (keyof DbCounters["db"])[])
    db[k] -= (bg.after.db[k] - bg.before.db[k] - (k === "xact_commit" ? benchXacts : 0)) * f;
  const tables: Record<string, TableCounters> = {};
  for (const [name, t] of Object.entries(after.tables)) {
    const a = bg.after.tables[name];
    const b = bg.before.tables[name];
    const out = { ...t };
    if (a && b) for (const k of Object.keys(out) as (keyof TableCounters)[]) out[k] -= (a[k] - b[k]) * f;
    tables[name] = out;
  }
  const map = (
    x: Record<string, number> | null,
    ba: Record<string, number> | null,
    bb: Record<string, number> | null,
  ) =>
    x && ba && bb
      ? Object.fromEntries(Object.entries(x).map(([q, n]) => [q, n - ((ba[q] ?? 0) - (bb[q] ?? 0)) * f]))
      : x;
  const wal =
    after.wal && bg.after.wal && bg.before.wal
      ? {
          records: after.wal.records - (bg.after.wal.records - bg.before.wal.records) * f,
          fpi: after.wal.fpi - (bg.after.wal.fpi - bg.before.wal.fpi) * f,
          bytes: after.wal.bytes - (bg.after.wal.bytes - bg.before.wal.bytes) * f,
        }
      : after.wal;
  return {
    db,
    tables,
    wal,
    statements: map(after.statements, bg.after.statements, bg.before.statements),
    statementMs: map(after.statementMs, bg.after.statementMs, bg.before.statementMs),
  };
}

/** Per-call deltas; `benchXacts` are the reading backend's own transactions in between. */
export function perCall(
  before: DbCounters,
  measured: DbCounters,
  calls: number,
  benchXacts: number,
  background?: Background,
): PerCall {
  if (background) {
    const raw = perCall(before, measured, calls, benchXacts);
    const adjusted = perCall(before, withoutBackground(measured, background, benchXacts), calls, benchXacts);
    const seconds = background.quietMs / 1000;
    const bgStatements =
      background.after.statements && background.before.statements
        ? Object.entries(background.after.statements).reduce(
            (a, [q, n]) => a + n - (background.before.statements![q] ?? 0),
            0,
          )
        : null;
    return {
      ...adjusted,
      background: {
        seconds,
        statementsPerSecond: bgStatements === null ? null : bgStatements / seconds,
        commitsPerSecond:
          (background.after.db.xact_commit - background.before.db.xact_commit - benchXacts) / seconds,
        raw: { statementsPerCall: raw.statementsPerCall, commitsPerCall: raw.commitsPerCall },
      },
    };
  }
  const after = measured;
  const d = (k: keyof DbCounters["db"]) => (after.db[k] - before.db[k]) / calls;
  const tables = Object.entries(after.tables)
    .map(([table, a]) => {
      const b = before.tables[table] ?? {
        seq_scan: 0,
        idx_scan: 0,
        n_tup_ins: 0,
        n_tup_upd: 0,
        n_tup_del: 0,
      };
      return {
        table,
        seqScan: (a.seq_scan - b.seq_scan) / calls,
        idxScan: (a.idx_scan - b.idx_scan) / calls,
        ins: (a.n_tup_ins - b.n_tup_ins) / calls,
        upd: (a.n_tup_upd - b.n_tup_upd) / calls,
      };
    })
    .filter((t) => t.seqScan + t.idxScan + t.ins + t.upd > 0.004)
    .sort((x, y) => y.idxScan + y.seqScan + y.ins + y.upd - (x.idxScan + x.seqScan + x.ins + x.upd));
  let statementsPerCall: number | null = null;
  let dataStatementsPerCall: number | null = null;
  let topStatements: PerCall["topStatements"] = [];
  if (before.statements && after.statements) {
    const deltas = Object.entries(after.statements)
      .map(([query, n]) => {
        const executions = n - (before.statements![query] ?? 0);
        const ms = (after.statementMs?.[query] ?? 0) - (before.statementMs?.[query] ?? 0);
        return {
          query,
          perCall: executions / calls,
          msPerExecution: executions > 0 ? ms / executions : null,
        };
      })
      .filter((s) => s.perCall !== 0);
    statementsPerCall = deltas.reduce((a, s) => a + s.perCall, 0);
    const control = /^\s*(begin|commit|rollback|start transaction)\b/i;
    dataStatementsPerCall = deltas.filter((s) => !control.test(s.query)).reduce((a, s) => a + s.perCall, 0);
    // Rows a background subtraction leaves near zero are noise, not the call's statements.
    topStatements = deltas
      .filter((s) => s.perCall >= 0.005)
      .sort((a, b) => b.perCall - a.perCall)
      .slice(0, 20);
  }
  return {
    calls,
    commitsPerCall: (after.db.xact_commit - before.db.xact_commit - benchXacts) / calls,
    rollbacksPerCall: d("xact_rollback"),
    tuples: {
      returned: d("tup_returned"),
      fetched: d("tup_fetched"),
      inserted: d("tup_inserted"),
      updated: d("tup_updated"),
      deleted: d("tup_deleted"),
    },
    tables,
    statementsPerCall,
    wal:
      after.wal && before.wal
        ? {
            records: (after.wal.records - before.wal.records) / calls,
            fpi: (after.wal.fpi - before.wal.fpi) / calls,
            bytes: (after.wal.bytes - before.wal.bytes) / calls,
          }
        : null,
    dataStatementsPerCall,
    topStatements,
    background: null,
  };
}

export interface ActivitySummary {
  samples: number;
  /** Average number of the app's connections in each state during the window. */
  states: { state: string; avg: number }[];
}

/**
 * Samples `pg_stat_activity` for the app's pooled connections (application_name `paperclip`)
 * every `intervalMs`: how many are free, busy in PostgreSQL (on CPU or waiting, by wait
 * event), or idle inside a transaction (waiting for the app between statements).
 */
export function sampleActivity(sql: postgres.Sql, intervalMs = 100) {
  const totals = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const rows = await sql<{ state: string | null; wtype: string | null; wevent: string | null }[]>`
          select state, wait_event_type as wtype, wait_event as wevent from pg_stat_activity
          where datname = current_database() and application_name = 'paperclip'`;
        samples++;
        for (const r of rows) {
          const key =
            r.state === "active"
              ? r.wtype
                ? `active, waiting: ${r.wtype}:${r.wevent}`
                : "active, on CPU"
              : r.state === "idle in transaction"
                ? "idle in transaction (waiting for the app)"
                : r.state === "idle"
                  ? "idle (free in the pool)"
                  : String(r.state);
          totals.set(key, (totals.get(key) ?? 0) + 1);
        }
      } catch {
        // the sampler must never fail a run
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    async stop(): Promise<ActivitySummary> {
      running = false;
      await loop;
      return {
        samples,
        states: [...totals.entries()]
          .map(([state, n]) => ({ state, avg: samples ? n / samples : 0 }))
          .sort((a, b) => b.avg - a.avg),
      };
    },
  };
}
