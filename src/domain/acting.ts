// Who is acting, independent of how they got here: an API user (with a role that limits which
// inboxes they see), or automation, a contact, the system. Services take an Acting, never an HTTP
// principal, so automation rules, the public API and CSAT reuse the same write paths.
import type { UserRow } from "../db/users.repo.ts";
import type { Role } from "../db/users.repo.ts";
import type { Actor } from "../shared/event-types.ts";
import type { AccountPrincipal } from "./auth.service.ts";
import type { AccountRef } from "./presenters/contact.presenter.ts";

export interface Acting {
  account: AccountRef;
  actor: Actor;
  /** The user behind a `user` actor: sender of outgoing messages, named in activity messages. */
  user: UserRow | null;
  /** A user's role; agents only reach conversations of their inboxes. Null for non-user actors. */
  role: Role | null;
  /** The name activity messages use for this actor (Chatwoot: user name, "Automation System", the contact's name). */
  name: string | null;
  /** An agent bot reaches only the conversations of the inboxes it answers. */
  botInboxIds?: readonly number[];
}

export function actingAs(p: AccountPrincipal): Acting {
  if (p.bot) {
    return {
      account: { id: p.account.id, name: p.account.name },
      actor: { type: "agent_bot", id: p.bot.id },
      user: null,
      role: null,
      name: p.bot.name,
      botInboxIds: p.bot.inboxIds,
    };
  }
  return {
    account: { id: p.account.id, name: p.account.name },
    actor: { type: "user", id: p.user.id },
    user: p.user,
    role: p.role,
    name: p.user.name,
  };
}

export function actingAsAutomation(account: AccountRef, ruleId: number | null = null): Acting {
  return { account, actor: { type: "automation", id: ruleId }, user: null, role: null, name: "Automation System" };
}

export function actingAsContact(account: AccountRef, contact: { id: number; name: string }): Acting {
  return { account, actor: { type: "contact", id: contact.id }, user: null, role: null, name: contact.name };
}

export function actingAsSystem(account: AccountRef): Acting {
  return { account, actor: { type: "system", id: null }, user: null, role: null, name: null };
}

export function isAgent(a: Acting): boolean {
  return a.role === "agent";
}
