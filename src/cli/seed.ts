// parley seed: a realistic account for demos, sandboxes and benchmarks. The directory (account,
// administrator, agents, an API inbox, teams) goes through the real services; contacts,
// conversations and messages are bulk-loaded (src/db/seed.repo.ts).
import {
  contactInboxSourceId,
  firstConversation,
  maxMessageId,
  messageIdRange,
  publicTargets,
} from "../db/seed-lookups.ts";
import { refreshSeededStatistics, seedContacts, seedConversations, seedThread } from "../db/seed.repo.ts";
import type { Deps } from "../deps.ts";
import { unixSeconds } from "../lib/clock.ts";
import { isPostgresUrl } from "../config.ts";
import { intFlag, UsageError } from "./args.ts";
import { command, dbRequired, jsonFlag } from "./commands.ts";
import { withDeps } from "./context.ts";

export interface SeedCounts {
  contacts: number;
  conversations: number;
  messagesPerConversation: number;
  threadMessages: number;
}

async function seedAccount(d: Deps, n: SeedCounts, log: (line: string) => void) {
  const now = unixSeconds(d.clock);
  const tag = `${Date.now().toString(36)}`;
  const boot = await d.services.accounts.bootstrap({
    account: "Demo Co",
    name: "Demo Admin",
    email: `admin-${tag}@demo.parley.local`,
  });
  const principal = d.services.auth.account(boot.api_access_token, String(boot.account_id));
  const agentIds: number[] = [];
  for (const name of ["Ana", "Bruno", "Chen", "Dara"]) {
    const id = await d.writeTx(() =>
      d.services.accounts.findOrCreateUser(name, `${name.toLowerCase()}-${tag}@demo.parley.local`, now),
    );
    await d.services.accounts.addMember(boot.account_id, id, "agent");
    agentIds.push(id);
  }
  const inbox = await d.services.inboxes.create(principal, { name: "Website API", channel: { type: "api" } });
  await d.services.inboxMembers.add(principal, { inbox_id: inbox.id, user_ids: [boot.user_id, ...agentIds] });
  const teamIds: number[] = [];
  for (const [i, name] of ["sales", "support", "billing"].entries()) {
    const team = await d.services.teams.create(principal, { name, description: `The ${name} team` });
    await d.services.teams.addMembers(principal, team.id, [agentIds[i]!, agentIds[(i + 1) % agentIds.length]!]);
    teamIds.push(team.id);
  }

  let t = performance.now();
  seedContacts(d.db, boot.account_id, n.contacts, now);
  log(`contacts: ${n.contacts} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  seedConversations(d.db, {
    accountId: boot.account_id,
    inboxId: inbox.id,
    count: n.conversations,
    messagesPerConversation: n.messagesPerConversation,
    agentIds,
    teamIds,
    now,
  });
  log(
    `conversations: ${n.conversations} × ${n.messagesPerConversation} messages in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  // The first conversation also gets a long thread, for message paging.
  const first = firstConversation(d.db, boot.account_id);
  let thread: Record<string, number | null> = {};
  if (first && n.threadMessages > 0) {
    const before = maxMessageId(d.db);
    seedThread(
      d.db,
      {
        accountId: boot.account_id,
        inboxId: inbox.id,
        conversationId: first.id,
        contactId: first.contact_id,
        userId: boot.user_id,
      },
      n.threadMessages,
      now,
    );
    const ids = messageIdRange(d.db, first.id, before);
    thread = {
      thread_conversation_id: first.display_id,
      thread_oldest_message_id: ids.lo,
      thread_middle_message_id: Math.floor((ids.lo + ids.hi) / 2),
    };
  }
  const ci = first ? { source_id: contactInboxSourceId(d.db, first.contact_inbox_id) } : null;
  // Public-API addresses (contact identifier, conversation) for load spread over many contacts.
  const publicTargetList = publicTargets(d.db, boot.account_id, first?.id ?? 0, 2000);
  refreshSeededStatistics(d.db);
  return {
    account_id: boot.account_id,
    user_id: boot.user_id,
    api_access_token: boot.api_access_token,
    inbox_id: inbox.id,
    inbox_identifier: inbox.identifier,
    contact_identifier: ci?.source_id ?? null,
    public_conversation_id: first?.display_id ?? null,
    public_targets: publicTargetList,
    agent_ids: agentIds,
    team_ids: teamIds,
    ...thread,
  };
}

export const seed = command(
  "seed",
  "fill a database with a realistic demo account (contacts, conversations, messages)",
  {
    db: dbRequired,
    contacts: { type: "string", help: "contacts to create (default 1000)" },
    conversations: {
      type: "string",
      help: "conversations to create (default 200; at most one per contact with an email)",
    },
    "messages-per-conversation": { type: "string", help: "messages in each conversation (default 4)" },
    "thread-messages": { type: "string", help: "extra messages in the first conversation, for paging (default 10000)" },
    json: jsonFlag,
  },
  async (f, io) => {
    // The bulk loads are SQLite's (its FTS tables, its statistics): seed a file, then parley copy it.
    if (isPostgresUrl(f.db!))
      throw new UsageError("seed writes a SQLite file: seed one, then move it with parley copy --to postgres://…");
    const counts: SeedCounts = {
      contacts: intFlag("contacts", f.contacts, 1000),
      conversations: intFlag("conversations", f.conversations, 200),
      messagesPerConversation: intFlag("messages-per-conversation", f["messages-per-conversation"], 4),
      threadMessages: intFlag("thread-messages", f["thread-messages"], 10_000),
    };
    const result = await withDeps(f.db, (d) => seedAccount(d, counts, f.json ? io.err : io.out));
    if (f.json) io.out(JSON.stringify(result));
    else
      io.out(
        `Seeded account ${result.account_id}; administrator token (shown once): ${result.api_access_token}; API inbox ${result.inbox_identifier}`,
      );
    return 0;
  },
);
