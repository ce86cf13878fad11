/**
 * `npm run cli -- smoke`: runs the ADR's 13 smoke checks against a running instance through
 * `POST /api/companies/:companyId/tools/examples/smoke`, as an admin board key from the
 * environment (`PAPERCLIP_BOARD_KEY`; the key's own company is the calling company). The
 * server owns the hidden smoke companies, so the key needs no power to create companies.
 * Prints each check; exit 1 when one fails or the call is refused.
 */
export interface SmokeCommandEnv {
  url: string;
  boardKey: string | undefined;
  out: (line: string) => void;
  fetch?: typeof fetch;
}

interface SmokeCheckLine {
  id: string;
  name: string;
  passed: boolean;
  durationMs: number;
  error: string | null;
  evidence: Record<string, unknown>;
}

export async function runSmokeCommand(env: SmokeCommandEnv): Promise<number> {
  const f = env.fetch ?? fetch;
  if (!env.boardKey) {
    env.out("✖ set PAPERCLIP_BOARD_KEY to an admin board key of the instance");
    return 2;
  }
  const base = env.url.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${env.boardKey}`, "content-type": "application/json" };
  const listed = await f(`${base}/api/companies`, { headers });
  const body = (await listed.json().catch(() => null)) as { companies?: { id: string }[] } | null;
  const companyId = body?.companies?.[0]?.id;
  if (!listed.ok || !companyId) {
    env.out(`✖ the board key was refused (${listed.status})`);
    return 1;
  }
  const started = Date.now();
  const res = await f(`${base}/api/companies/${companyId}/tools/examples/smoke`, {
    method: "POST",
    headers,
    body: "{}",
  });
  const result = (await res.json().catch(() => null)) as {
    passed: boolean;
    checks: SmokeCheckLine[];
    error?: { code: string; message: string };
  } | null;
  if (!res.ok || !result?.checks) {
    env.out(`✖ the smoke run was refused (${res.status}): ${result?.error?.code ?? "no answer"}`);
    return 1;
  }
  for (const c of result.checks) {
    env.out(`${c.passed ? "✔" : "✖"} ${c.name} (${c.durationMs} ms)${c.error ? ` — ${c.error}` : ""}`);
    if (!c.passed) env.out(`    evidence: ${JSON.stringify(c.evidence)}`);
  }
  const passed = result.checks.filter((c) => c.passed).length;
  env.out(`${passed}/${result.checks.length} smoke checks passed in ${Date.now() - started} ms`);
  return result.passed ? 0 : 1;
}
