// Routes under /conversations/:conversation_id: the acting user and a loader that finds the
// conversation through the caller's access (404 unknown or another account's, 403 not their inbox).
// Used as `.use(accountScope(auth)).derive(conversationLoader(d))`.
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import type { AccountPrincipal } from "../domain/auth.service.ts";

export function conversationLoader(d: Deps) {
  return ({ principal, params }: { principal: AccountPrincipal; params: unknown }) => {
    const acting = actingAs(principal);
    return {
      acting,
      load: () => d.services.conversations.get(acting, (params as { conversation_id?: string }).conversation_id),
    };
  };
}
