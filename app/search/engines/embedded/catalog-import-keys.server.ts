import Database from "better-sqlite3";

export type KeyKind = "item_number" | "item_id" | "bom_id";

/**
 * Remembers every item number, item id and BOM id with its line, so a duplicate names both lines.
 * It lives in a throw-away SQLite file rather than a JS Map: a million keys stay off the heap.
 * Item numbers compare case-insensitively (ASCII), as the catalogue looks them up.
 */
export class KeyRegister {
  private readonly db = new Database("");
  private readonly statements: Record<KeyKind, { claim: Database.Statement; line: Database.Statement }>;
  private readonly hasItemNumber: Database.Statement;

  constructor() {
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma("cache_size = -32768");
    const tables: Record<KeyKind, string> = { item_number: "COLLATE NOCASE", item_id: "", bom_id: "" };
    const statements = {} as Record<KeyKind, { claim: Database.Statement; line: Database.Statement }>;
    for (const [table, collate] of Object.entries(tables) as [KeyKind, string][]) {
      this.db.exec(`CREATE TABLE ${table} (key TEXT PRIMARY KEY ${collate}, line INTEGER NOT NULL) WITHOUT ROWID`);
      statements[table] = {
        claim: this.db.prepare(`INSERT INTO ${table} (key, line) VALUES (?, ?) ON CONFLICT DO NOTHING`),
        line: this.db.prepare(`SELECT line FROM ${table} WHERE key = ?`).pluck(),
      };
    }
    this.statements = statements;
    this.hasItemNumber = this.db.prepare("SELECT 1 FROM item_number WHERE key = ?").pluck();
    this.db.exec("BEGIN");
  }

  /** Records `key`; when it was seen before, returns the line it was first seen on. */
  claim(kind: KeyKind, key: string, line: number): number | null {
    const { claim, line: firstLine } = this.statements[kind];
    if (claim.run(key, line).changes === 1) return null;
    return firstLine.get(key) as number;
  }

  knowsItem(itemNumber: string): boolean {
    return this.hasItemNumber.get(itemNumber) !== undefined;
  }

  close(): void {
    this.db.close();
  }
}
