/**
 * Codemod: status literals → the error catalogue (server/errors/codes.ts).
 *
 *   npx tsx scripts/codemods/service-error-codes.ts          # rewrite, then biome-format the files
 *   npx tsx scripts/codemods/service-error-codes.ts --check  # report only; exit 1 if anything is left
 *
 * It rewrites, across every TypeScript file of the project (tsconfig.json):
 *  1. `new ServiceError(code, message, status[, details])` → `new ServiceError(code, message[, details])`
 *     once the status equals the catalogue's for every code the `code` expression can hold
 *     (its type: a literal, a union of literals, a narrowed variable). A status that is the
 *     code's documented second status (`also`) becomes `ServiceError.withStatus(code, status, …)`.
 *     A re-wrap `new ServiceError(e.code, msg, e.status, …)` drops `e.status` (the code implies it).
 *  2. Outcome objects `{ status: 409, code: "approval_required", … }` (the gateway's refusals) →
 *     `{ status: ERRORS.approval_required.status, … }` (or `ERRORS[code].status` for a narrowed
 *     variable), adding `ERRORS` to the file's import from server/errors.
 *
 * It never guesses: an unknown code, a status that differs from the catalogue, a computed
 * status or an untyped (`string`) code is printed with its location and the run exits 1 without
 * touching that call — resolve it in the catalogue or by hand, then run again. Running it on
 * converted code changes nothing (idempotent), so it can be re-run after every merge.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { ERRORS } from "../../server/errors/codes";

type Entry = { status: number; also?: Record<number, string> };
const CATALOGUE = ERRORS as unknown as Record<string, Entry>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const errorsModule = path.join(root, "server/errors/index.ts");
const checkOnly = process.argv.includes("--check");

interface Edit {
  start: number;
  end: number;
  text: string;
}

const problems: string[] = [];
const changes: string[] = [];

const configPath = path.join(root, "tsconfig.json");
const config = ts.readConfigFile(configPath, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
const checker = program.getTypeChecker();

function where(sf: ts.SourceFile, node: ts.Node): string {
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${path.relative(root, sf.fileName)}:${line + 1}:${character + 1}`;
}

/** The string literals a code expression can hold, or null when its type is not literal. */
function codesOf(expr: ts.Expression): string[] | null {
  const type = checker.getTypeAtLocation(expr);
  const parts = type.isUnion() ? type.types : [type];
  const out: string[] = [];
  for (const t of parts) {
    if (!t.isStringLiteral()) return null;
    out.push(t.value);
  }
  return out;
}

/** A numeric literal's value (also `-1`-free plain literals only), or null. */
function literalNumber(expr: ts.Expression): number | null {
  return ts.isNumericLiteral(expr) ? Number(expr.text) : null;
}

const isNumberTyped = (expr: ts.Expression) => {
  const type = checker.getTypeAtLocation(expr);
  return (type.isUnion() ? type.types : [type]).every((t) => (t.flags & ts.TypeFlags.NumberLike) !== 0);
};

/** `c ? 504 : 502` with `code: c ? "upstream_timeout" : "upstream_error"`: each branch checked. */
function conditionalPair(sf: ts.SourceFile, code: ts.Expression, status: ts.Expression): string | null {
  if (!ts.isConditionalExpression(code) || !ts.isConditionalExpression(status)) return null;
  if (code.condition.getText(sf) !== status.condition.getText(sf)) return null;
  const pairs: [ts.Expression, ts.Expression][] = [
    [code.whenTrue, status.whenTrue],
    [code.whenFalse, status.whenFalse],
  ];
  for (const [c, n] of pairs) {
    const value = literalNumber(n);
    if (!ts.isStringLiteral(c) || value === null || verdict([c.text], value) !== "primary") return null;
  }
  return `ERRORS[${code.getText(sf)}].status`;
}

/** `new ServiceError(` whose constructor is the catalogue's class (any import path). */
function isServiceErrorNew(node: ts.Node): node is ts.NewExpression {
  if (!ts.isNewExpression(node)) return false;
  if (!ts.isIdentifier(node.expression) || node.expression.text !== "ServiceError") return false;
  let sym = checker.getSymbolAtLocation(node.expression);
  if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
  return sym?.declarations?.some((d) => path.resolve(d.getSourceFile().fileName) === errorsModule) ?? false;
}

/** Checks a status literal against the catalogue for every code; returns a problem or a verdict. */
function verdict(codes: string[], status: number): "primary" | "alternate" | string {
  const unknown = codes.filter((c) => !CATALOGUE[c]);
  if (unknown.length)
    return `unknown code ${unknown.map((c) => `\`${c}\``).join(", ")}: add it to server/errors/codes.ts`;
  if (codes.every((c) => CATALOGUE[c]?.status === status)) return "primary";
  if (codes.length === 1 && CATALOGUE[codes[0] as string]?.also?.[status]) return "alternate";
  const want = codes.map((c) => `${c}=${CATALOGUE[c]?.status}`).join(", ");
  return `status ${status} differs from the catalogue (${want}): fix the catalogue or the call`;
}

/** `e.code` with `e.status` (a re-wrap or a copy of one error): the code implies the status. */
const sameSource = (sf: ts.SourceFile, code: ts.Expression, status: ts.Expression) =>
  ts.isPropertyAccessExpression(code) &&
  code.name.text === "code" &&
  ts.isPropertyAccessExpression(status) &&
  status.name.text === "status" &&
  code.expression.getText(sf) === status.expression.getText(sf);

function serviceErrorEdit(sf: ts.SourceFile, node: ts.NewExpression): Edit | null {
  const args = node.arguments ?? ts.factory.createNodeArray();
  if (args.length < 3 || !isNumberTyped(args[2] as ts.Expression)) return null; // already converted
  const [code, message, status, details] = args as unknown as [
    ts.Expression,
    ts.Expression,
    ts.Expression,
    ts.Expression | undefined,
  ];
  const drop = { start: message.end, end: status.end, text: "" };
  if (sameSource(sf, code, status)) {
    changes.push(`${where(sf, node)}  re-wrap: dropped \`${status.getText(sf)}\``);
    return drop;
  }
  const value = literalNumber(status);
  if (value === null) {
    problems.push(`${where(sf, node)}  computed status \`${status.getText(sf)}\`: rewrite by hand`);
    return null;
  }
  const codes = codesOf(code);
  if (!codes) {
    problems.push(`${where(sf, node)}  code \`${code.getText(sf)}\` is not typed as catalogue codes`);
    return null;
  }
  const v = verdict(codes, value);
  if (v === "primary") {
    changes.push(`${where(sf, node)}  ${codes.join("|")}: dropped ${value}`);
    return drop;
  }
  if (v === "alternate") {
    const rest = [code, status, message, ...(details ? [details] : [])].map((a) => a.getText(sf)).join(", ");
    const only = codes[0]!;
    changes.push(`${where(sf, node)}  ${only}: ${value} is its documented second status → withStatus`);
    return { start: node.getStart(sf), end: node.end, text: `ServiceError.withStatus(${rest})` };
  }
  problems.push(`${where(sf, node)}  ${v}`);
  return null;
}

const propName = (p: ts.ObjectLiteralElementLike) =>
  p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;

/** `{ status: 409, code: "x", … }` → `{ status: ERRORS.x.status, … }`. */
function outcomeEdit(sf: ts.SourceFile, node: ts.ObjectLiteralExpression): Edit | null {
  const status = node.properties.find((p) => propName(p) === "status");
  const code = node.properties.find((p) => propName(p) === "code");
  if (!status || !code || !ts.isPropertyAssignment(status)) return null;
  const codeExpr = ts.isPropertyAssignment(code)
    ? code.initializer
    : ts.isShorthandPropertyAssignment(code)
      ? code.name
      : null;
  if (!codeExpr) return null;
  const codes = codesOf(codeExpr);
  // Only our error outcomes: a code typed as catalogue-shaped literals (not zod's "custom" …).
  if (!codes?.some((c) => CATALOGUE[c])) return null;
  const init = status.initializer;
  if (!isNumberTyped(init) || sameSource(sf, codeExpr, init)) return null;
  const value = literalNumber(init);
  if (value === null) {
    if (/\bERRORS\b/.test(init.getText(sf))) return null; // already converted
    const paired = conditionalPair(sf, codeExpr, init);
    if (paired) {
      changes.push(`${where(sf, init)}  outcome ${codes.join("|")}: \`${init.getText(sf)}\` → ${paired}`);
      return { start: init.getStart(sf), end: init.end, text: paired };
    }
    problems.push(
      `${where(sf, init)}  computed outcome status \`${init.getText(sf)}\`: use ERRORS[code].status`,
    );
    return null;
  }
  const v = verdict(codes, value);
  if (v !== "primary") {
    problems.push(
      `${where(sf, init)}  outcome: ${v === "alternate" ? `${value} is an alternate status` : v}`,
    );
    return null;
  }
  const text = ts.isStringLiteral(codeExpr)
    ? `ERRORS.${codeExpr.text}.status`
    : `ERRORS[${codeExpr.getText(sf)}].status`;
  changes.push(`${where(sf, init)}  outcome ${codes.join("|")}: ${value} → ${text}`);
  return { start: init.getStart(sf), end: init.end, text };
}

/** Adds `ERRORS` to the file's import from server/errors (or a new import line). */
function importEdit(sf: ts.SourceFile): Edit | null {
  let lastImportEnd = 0;
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st)) continue;
    lastImportEnd = st.end;
    const spec = (st.moduleSpecifier as ts.StringLiteral).text;
    const resolved = ts.resolveModuleName(spec, sf.fileName, parsed.options, ts.sys).resolvedModule;
    if (!resolved || path.resolve(resolved.resolvedFileName) !== errorsModule) continue;
    const bindings = st.importClause?.namedBindings;
    if (st.importClause?.isTypeOnly || !bindings || !ts.isNamedImports(bindings)) continue;
    if (bindings.elements.some((e) => e.name.text === "ERRORS")) return null;
    return { start: bindings.getStart(sf) + 1, end: bindings.getStart(sf) + 1, text: " ERRORS," };
  }
  let rel = path
    .relative(path.dirname(sf.fileName), path.join(root, "server/errors"))
    .split(path.sep)
    .join("/");
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return { start: lastImportEnd, end: lastImportEnd, text: `\nimport { ERRORS } from "${rel}";` };
}

const touched: string[] = [];
for (const sf of program.getSourceFiles()) {
  const file = path.resolve(sf.fileName);
  if (!file.startsWith(root) || file.includes(`${path.sep}node_modules${path.sep}`) || sf.isDeclarationFile)
    continue;
  if (file.startsWith(path.join(root, "scripts/codemods"))) continue;
  const edits: Edit[] = [];
  let usesErrors = false;
  // Outcome objects only in the product's code: tests and stories keep asserting plain numbers.
  const outcomes = file.startsWith(path.join(root, "server") + path.sep) && !/\.test\.tsx?$/.test(file);
  const visit = (node: ts.Node) => {
    if (isServiceErrorNew(node)) {
      const e = serviceErrorEdit(sf, node);
      if (e) edits.push(e);
    } else if (outcomes && ts.isObjectLiteralExpression(node)) {
      const e = outcomeEdit(sf, node);
      if (e) {
        edits.push(e);
        usesErrors = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) continue;
  if (usesErrors && file !== path.join(root, "server/errors/codes.ts")) {
    const imp = importEdit(sf);
    if (imp) edits.push(imp);
  }
  touched.push(file);
  if (checkOnly) continue;
  let text = readFileSync(file, "utf8");
  for (const e of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  writeFileSync(file, text);
}

for (const c of changes) console.log(`${checkOnly ? "would change" : "changed"}  ${c}`);
for (const p of problems) console.error(`PROBLEM  ${p}`);
if (!checkOnly && touched.length) {
  execFileSync("npx", ["biome", "check", "--write", ...touched], { cwd: root, stdio: "inherit" });
}
console.log(
  `${changes.length} change(s) in ${touched.length} file(s)${checkOnly ? " pending" : ""}; ${problems.length} problem(s)`,
);
if (problems.length || (checkOnly && changes.length)) process.exit(1);
