// PostgreSQL: filing incoming mail is an awaited body (src/domain/email-intake.service.ts), so none of
// its statements (the contact, the conversation, the message, its Message-ID, the checkpoint) holds
// the process through the synchronous bridge. The poll around it (which inboxes to read, the sync
// time) still runs in place, once a poll. Against Dovecot; skipped without it, or on SQLite.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { dovecotInstalled } from "./dovecot.ts";
import { flowFixtures } from "./flow-fixtures.ts";
import { deliver } from "./mailbox.ts";
import { type MailServers, mailServers } from "./servers.ts";

const runs = dovecotInstalled && TEST_ENGINE === "postgres";
// Dovecot is started only where the test runs (its start is slow, and on SQLite there is nothing to see).
const servers = runs ? mailServers() : ({} as MailServers);
const { setup, conversationsOf, messagesOf } = flowFixtures(servers);

/** What filing a mail writes or looks up: none of it may run in place. */
const FILING =
  /^(INSERT INTO (contacts|contact_inboxes|conversations|messages|email_message_ids|events) |UPDATE email_channels SET uid_validity|SELECT header_id, conversation_id, message_id, direction FROM email_message_ids)/;

describe.skipIf(!runs)("PostgreSQL: incoming mail filed in awaited bodies", () => {
  test("a new mail and the customer's follow-up in its thread: nothing of the filing in place", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, {
      from: '"Carla Diaz" <carla@example.com>',
      subject: "Order 42",
      messageId: "<first-42@example.com>",
      body: "Where is my order?",
    });
    await deliver(servers.dovecot, s.folder, {
      from: '"Carla Diaz" <carla@example.com>',
      subject: "Re: Order 42",
      messageId: "<second-42@example.com>",
      inReplyTo: "<first-42@example.com>",
      body: "Any news?",
    });
    const blocking = await blockingDuring(() => s.poll());
    expect(blocking.filter((sql) => FILING.test(sql))).toEqual([]);
    const conversations = await conversationsOf(s);
    expect(conversations).toHaveLength(1);
    const contents = (await messagesOf(s, conversations[0].id)).map((m: { content: string }) => m.content);
    expect(contents).toEqual(["Where is my order?", "Any news?"]);
    // The checkpoint moved with the filings: the next poll files nothing again.
    await s.poll();
    expect(await messagesOf(s, conversations[0].id)).toHaveLength(2);
  });
});
