// Routes under /conversations/:conversation_id: the acting user and a loader that finds the
// conversation through the caller's access (404 unknown or another account's, 403 not their inbox).
// Used as `.use(accountScope(auth)).derive(conversationLoader(d))`. Writes `load()` the row in place;
// read-only routes ask `about()`, which awaits it and their reads on PostgreSQL (src/db/reads.ts);
// the awaited writes (message create, status, priority, assignment) ask `loadSoon()`, their bodies
// reading the row again in their own transaction.
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { Reads } from "../db/reads.ts";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import type { AccountPrincipal } from "../domain/auth.service.ts";

export function conversationLoader(d: Deps) {
  const { conversations } = d.services;
  return ({ principal, params }: { principal: AccountPrincipal; params: unknown }) => {
    const acting = actingAs(principal);
    const rawId = (params as { conversation_id?: string }).conversation_id;
    return {
      acting,
      load: () => conversations.get(acting, rawId),
      /** An awaited write's: committed rows, awaited on PostgreSQL (ConversationsService.getSoon). */
      loadSoon: () => conversations.getSoon(acting, rawId),
      /** A read-only route's answer: the row and what `then` reads of it, awaited on PostgreSQL. */
      about: <T>(then: (row: ConversationRow) => Reads<T>) => conversations.readAbout(acting, rawId, then),
    };
  };
}
