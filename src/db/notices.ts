// A NOTIFY as a step of a transaction body (reads.ts): PostgreSQL sends it to every listening
// process when the body's transaction commits, and not at all if it rolls back.
import type { PostgresDatabase } from "./postgres/database.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type NoticeSteps = (channel: string, payload: string) => Reads<void>;

export function transactionalNotices(db: PostgresDatabase): NoticeSteps {
  const notify = new TwoWayStatement(db.asDatabase(), "SELECT pg_notify(?, ?) AS sent");
  return function* (channel, payload) {
    yield notify.write([channel, payload]);
  };
}
