// What --db (PARLEY_DB) names: a SQLite file, or a PostgreSQL database by its URL. Apart from
// config.ts so that its parts (config-files.ts, config-mail.ts) can ask too.

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
