import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { ENCRYPTED_JSON_COLUMNS, ENCRYPTED_ROW_TABLES } from "./encrypted-columns";

/** Every column of the schema that looks encrypted: a `*_encrypted` column, or a `ciphertext`. */
function encryptedLookingColumns(): string[] {
  const found: string[] = [];
  for (const value of Object.values(schema)) {
    if (!(value instanceof PgTable)) continue;
    const { name, columns } = getTableConfig(value);
    for (const c of columns) {
      if (c.name.endsWith("_encrypted") || c.name === "ciphertext") found.push(`${name}.${c.name}`);
    }
  }
  return found.sort();
}

describe("the registry of columns encrypted with the master key", () => {
  it("holds every encrypted column of the schema, so rotate-master-key and doctor miss none", () => {
    const registered = new Set([
      ...ENCRYPTED_JSON_COLUMNS.map((c) => c.name),
      ...ENCRYPTED_ROW_TABLES.map((t) => `${t.name}.ciphertext`),
    ]);
    const found = encryptedLookingColumns();
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.filter((c) => !registered.has(c))).toEqual([]);
  });

  it("names each registered column as the schema does", () => {
    for (const c of ENCRYPTED_JSON_COLUMNS) {
      expect(`${getTableConfig(c.table).name}.${c.column.name}`).toBe(c.name);
      expect(c.column.getSQLType()).toBe("jsonb");
    }
    for (const t of ENCRYPTED_ROW_TABLES) expect(getTableConfig(t.table).name).toBe(t.name);
  });
});
