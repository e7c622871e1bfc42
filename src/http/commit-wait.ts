// Group commit's other half (src/db/tx.ts): no response leaves before the writes it reports on are
// committed. Every response (errors too: a request may have written before it failed) waits for
// the open group's commit; when nothing waits, this costs one function call. Each request also
// opens the turn's shared read snapshot first (src/db/tx.ts), before any hook reads.
import { Elysia } from "elysia";
import type { Commits } from "../db/tx.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { commitFailedResponse } from "./errors.ts";

export function commitWait(commits: Commits, logger: Logger) {
  return new Elysia({ name: "parley-commit-wait" })
    .onRequest(() => commits.shareReads())
    .mapResponse({ as: "global" }, async () => {
      const pending = commits.settled();
      if (!pending) return;
      try {
        await pending;
      } catch (error) {
        logger.error("group commit failed", errorFields(error));
        return commitFailedResponse();
      }
    });
}
