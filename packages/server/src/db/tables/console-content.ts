/** The console's content (migration 2026_12_08_020000): what an admin wrote in place of the built-in texts. */

/**
 * One edited text per kind, name and language: `tags` and `suggestions` (name '', body a JSON list
 * of the contract's shape) and `page` (name the page, body its Markdown). No row: the built-in text.
 */
export interface ConsoleContentTable {
  kind: string;
  name: string;
  locale: string;
  body: string;
  updated_at: string;
  /** Who saved it (the console member's e-mail, or `admin-token`). */
  updated_by: string;
}

export interface ConsoleContentTables {
  console_content: ConsoleContentTable;
}
