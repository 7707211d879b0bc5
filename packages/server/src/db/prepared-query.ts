import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import type { Database } from './database';

const marker = '\u0000agora-parameter:';

interface Template {
  compiled: CompiledQuery;
  /** For each parameter of the compiled query: the name of the value it takes, or the constant it keeps. */
  slots: ({ name: string } | { value: unknown })[];
}

/**
 * A query of the hot paths (votes) built and compiled once per dialect, then run with new values:
 * on SQLite, Kysely's builder and compiler cost more than executing a small statement. `build` gets
 * stand-ins for the named values; it must use them only as query values (never in JavaScript logic),
 * so that the SQL text does not depend on them. The SQL is still Kysely's, for every dialect.
 */
export class PreparedQuery<Values extends Record<string, unknown>, Row> {
  // One template per query compiler: a database and its transactions share theirs.
  private readonly templates = new WeakMap<object, Template>();

  constructor(private readonly build: (db: Kysely<Database>, values: Values) => Compilable<Row>) {}

  execute(db: Kysely<Database>, values: Values): Promise<QueryResult<Row>> {
    const template = this.template(db);
    const parameters = template.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    return db.executeQuery<Row>({ ...(template.compiled as CompiledQuery<Row>), parameters });
  }

  private template(db: Kysely<Database>): Template {
    const key = db.getExecutor().adapter;
    let template = this.templates.get(key);
    if (!template) {
      const standIns = new Proxy({} as Values, { get: (_target, name) => `${marker}${String(name)}` });
      const compiled = this.build(db, standIns).compile();
      const slots = compiled.parameters.map((parameter) =>
        typeof parameter === 'string' && parameter.startsWith(marker) ? { name: parameter.slice(marker.length) } : { value: parameter },
      );
      template = { compiled, slots };
      this.templates.set(key, template);
    }
    return template;
  }
}
