// Bulk inserts for `parley seed` (demo sandboxes and benchmarks): millions of rows in batched
// transactions, far faster than the API. Rows are what the services would write, minus the events
// (a seed is not a history of changes). The directory (account, agents, inbox, teams) is made
// through the real services by the seed command; this file only bulk-loads what hangs on it.
import type { Database } from "bun:sqlite";
import { MIGRATIONS } from "./migrations.ts";

const FIRST =
  "James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Akiko Olga Pedro Fatima Wei Yuki Ivan Lucia Ngozi Aarav Chloé Søren Zoë Mateo".split(
    " ",
  );
const LAST =
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kowalski Nakamura Rossi Dubois Müller".split(
    " ",
  );
const DOMAINS = [
  "gmail.com",
  "yahoo.com",
  "outlook.com",
  "proton.me",
  "acme.io",
  "initech.com",
  "globex.net",
  "hooli.xyz",
];
const STATUSES = [
  "open",
  "open",
  "open",
  "open",
  "open",
  "open",
  "resolved",
  "resolved",
  "pending",
  "snoozed",
] as const;
const BATCH = 20_000;
const DAY = 86_400;

function batches(db: Database, total: number, row: (i: number) => void): void {
  for (let i = 0; i < total; ) {
    db.transaction(() => {
      for (let k = 0; k < BATCH && i < total; k++, i++) row(i);
    })();
  }
}

/** The i-th seeded contact's fields: deterministic, realistic mixes of email/phone/identifier/company. */
export function contactFields(i: number) {
  const first = FIRST[(i * 7) % FIRST.length]!;
  const last = LAST[(i * 13 + Math.floor(i / FIRST.length)) % LAST.length]!;
  const kind = i % 20;
  const company = i % 4 === 0 ? `${LAST[(i * 31) % LAST.length]} ${["Ltd", "Inc", "GmbH", "SARL"][i % 4]}` : null;
  return {
    name: `${first} ${last}`,
    email: kind < 15 ? `${first.toLowerCase()}.${last.toLowerCase()}${i}@${DOMAINS[i % DOMAINS.length]}` : null,
    phone_number: kind >= 10 ? `+1${2_000_000_000 + i}` : null,
    identifier: kind === 19 ? `CRM-${i}` : null,
    company_name: company,
  };
}

/**
 * Inserts `count` contacts. Per-row FTS triggers make a million single inserts slow, so the insert
 * trigger is dropped, the rows loaded, the FTS tables filled in one statement each, and the trigger
 * restored from the migration text (so the schema stays exactly the migration's).
 */
export function seedContacts(db: Database, accountId: number, count: number, now: number): void {
  db.exec("DROP TRIGGER contacts_search_insert");
  const insert = db.prepare(
    `INSERT INTO contacts (account_id, name, email, phone_number, identifier, company_name, additional_attributes, last_activity_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const firstId = (db.query("SELECT COALESCE(MAX(id), 0) AS id FROM contacts").get() as { id: number }).id + 1;
  batches(db, count, (i) => {
    const c = contactFields(i);
    const attrs = c.company_name ? JSON.stringify({ company_name: c.company_name }) : "{}";
    insert.run(
      accountId,
      c.name,
      c.email,
      c.phone_number,
      c.identifier,
      c.company_name,
      attrs,
      i % 3 === 0 ? null : now - (i % 100_000),
      now - i,
      now - i,
    );
  });
  const resolved = `id >= ${firstId} AND (email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL)`;
  db.exec(
    `INSERT INTO contacts_search (rowid, name, email, phone_number, company_name) SELECT id, name, email, phone_number, company_name FROM contacts WHERE ${resolved}`,
  );
  db.exec(
    `INSERT INTO contacts_identifier_search (rowid, identifier) SELECT id, identifier FROM contacts WHERE ${resolved}`,
  );
  const migration = MIGRATIONS.find((m) => m.sql.includes("CREATE TRIGGER contacts_search_insert"))!;
  db.exec(/CREATE TRIGGER contacts_search_insert[\s\S]*?END;/.exec(migration.sql)![0]);
}

export interface ConversationSeed {
  accountId: number;
  inboxId: number;
  count: number;
  messagesPerConversation: number;
  agentIds: number[];
  teamIds: number[];
  now: number;
}

/**
 * Inserts `count` conversations over the account's contacts (one contact_inbox each), spread over
 * the past year with a realistic mix of statuses, assignees and teams, each with a short thread.
 * Returns the internal id of the first conversation.
 */
/** A well-mixed 32-bit hash of i (murmur3's finaliser). */
function spread(i: number): number {
  let h = Math.imul(i ^ (i >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function seedConversations(db: Database, s: ConversationSeed): void {
  const contacts = db
    .query("SELECT id FROM contacts WHERE account_id = ? AND email IS NOT NULL ORDER BY id LIMIT ?")
    .all(s.accountId, s.count) as { id: number }[];
  if (contacts.length === 0 || s.count === 0) return;
  const insertCi = db.prepare(
    "INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const ciIds: number[] = [];
  db.transaction(() => {
    for (const c of contacts)
      ciIds.push(
        Number(
          insertCi.run(c.id, s.inboxId, crypto.randomUUID(), crypto.randomUUID().replaceAll("-", ""), s.now, s.now)
            .lastInsertRowid,
        ),
      );
  })();
  const start = (
    db.query("SELECT COALESCE(MAX(display_id), 0) AS n FROM conversations WHERE account_id = ?").get(s.accountId) as {
      n: number;
    }
  ).n;
  const insertConv = db.prepare(
    `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, priority, assignee_id, team_id,
       snoozed_until, waiting_since, first_reply_created_at, last_activity_at, created_at, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, private, sender_type, sender_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  batches(db, s.count, (i) => {
    const k = i % contacts.length;
    const created = s.now - Math.floor(((s.count - i) / s.count) * 365 * DAY);
    const status = STATUSES[i % STATUSES.length]!;
    // Independent picks (a hash of i, not i modulo small numbers, which tied status, team and
    // assignee together and left the first team without a single conversation).
    const r = spread(i);
    const assignee = r % 5 === 0 ? null : (s.agentIds[(r >>> 8) % s.agentIds.length] ?? null);
    const team = (r >>> 16) % 3 === 0 ? null : (s.teamIds[(r >>> 20) % s.teamIds.length] ?? null);
    const replied = s.messagesPerConversation > 1 ? created + 300 : null;
    const last = created + 60 * s.messagesPerConversation;
    const id = Number(
      insertConv.run(
        s.accountId,
        start + i + 1,
        crypto.randomUUID(),
        s.inboxId,
        contacts[k]!.id,
        ciIds[k]!,
        status,
        i % 7 === 0 ? "high" : null,
        assignee,
        team,
        status === "snoozed" ? s.now + DAY : null,
        replied ? null : created,
        replied,
        last,
        created,
        last * 1000,
      ).lastInsertRowid,
    );
    for (let m = 0; m < s.messagesPerConversation; m++) {
      const incoming = m % 2 === 0;
      insertMessage.run(
        s.accountId,
        s.inboxId,
        id,
        incoming ? 0 : 1,
        incoming ? `Hello, I have a question about order ${i}-${m}` : `Thanks for writing! Looking into ${i}-${m}.`,
        incoming ? "Contact" : "User",
        incoming ? contacts[k]!.id : (assignee ?? s.agentIds[0] ?? null),
        created + 60 * m,
        created + 60 * m,
      );
    }
  });
  // Reporting events as the services would have written them: a first response for every replied
  // conversation and a resolution for every resolved one (value_in_business_hours NULL: the seeded
  // inbox keeps working hours disabled).
  const first = (
    db
      .query("SELECT COALESCE(MIN(id), 0) AS id FROM conversations WHERE account_id = ? AND display_id > ?")
      .get(s.accountId, start) as { id: number }
  ).id;
  const report = (name: string, where: string, value: string) =>
    db
      .query(
        `INSERT INTO reporting_events (name, value, value_in_business_hours, account_id, inbox_id, user_id, team_id, conversation_id, event_start_time, event_end_time, created_at)
       SELECT '${name}', ${value}, NULL, account_id, inbox_id, assignee_id, team_id, id, created_at, created_at + ${value}, created_at + ${value}
       FROM conversations WHERE account_id = ? AND id >= ? AND ${where}`,
      )
      .run(s.accountId, first);
  db.transaction(() => {
    report("first_response", "first_reply_created_at IS NOT NULL", "first_reply_created_at - created_at");
    report("conversation_resolved", "status = 'resolved'", "3600 + (id % 86400)");
    // Labels for the label filters: "billing" on one conversation in 13, "vip" on one in 97 (both
    // prime to the 4-status cycle, so every status has some).
    for (const [title, every] of [
      ["billing", 13],
      ["vip", 97],
    ] as const) {
      db.query(
        `INSERT OR IGNORE INTO conversation_labels (conversation_id, account_id, title) SELECT id, account_id, ? FROM conversations WHERE account_id = ? AND id >= ? AND id % ${every} = 0`,
      ).run(title, s.accountId, first);
    }
  })();
  db.query(
    `INSERT INTO account_counters (account_id, name, value) VALUES (?, 'conversation_display_id', ?)
     ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value`,
  ).run(s.accountId, start + s.count);
}

/** Appends `count` alternating incoming/outgoing messages to one conversation (a long thread). */
export function seedThread(
  db: Database,
  c: { accountId: number; inboxId: number; conversationId: number; contactId: number; userId: number },
  count: number,
  now: number,
): void {
  const insert = db.prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, private, sender_type, sender_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  batches(db, count, (i) => {
    const incoming = i % 2 === 0;
    const at = now - count + i;
    insert.run(
      c.accountId,
      c.inboxId,
      c.conversationId,
      incoming ? 0 : 1,
      `message ${i}: ${"lorem ipsum dolor sit amet ".repeat(1 + (i % 4))}`,
      incoming ? "Contact" : "User",
      incoming ? c.contactId : c.userId,
      at,
      at,
    );
  });
}

/** The tables the seed bulk-loads: their statistics are taken once they are full. */
const SEEDED_TABLES = [
  "contacts",
  "contact_inboxes",
  "conversations",
  "conversation_tallies",
  "messages",
  "reporting_events",
];

/**
 * Statistics that stay true: the bulk-loaded tables analysed after their data, and no statistics
 * at all for the others. An ANALYZE of everything here once recorded `events` (one row at that
 * point, a table that grows with every change) as a one-row table, and the event bus scanned it
 * from its first row for every batch. Tables without statistics are planned from SQLite's
 * defaults until the server's PRAGMA optimize takes them (src/db/open.ts).
 */
export function refreshSeededStatistics(db: Database): void {
  for (const table of SEEDED_TABLES) db.exec(`ANALYZE ${table}`);
  db.exec(`DELETE FROM sqlite_stat1 WHERE tbl NOT IN (${SEEDED_TABLES.map((t) => `'${t}'`).join(", ")})`);
  db.exec("ANALYZE sqlite_schema");
}
