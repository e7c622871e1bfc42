// Agent bots and the inboxes they answer (migration 018).
import type { Database, Statement } from "bun:sqlite";
import { nested, type Reads, TwoWayStatement } from "./reads.ts";

export interface AgentBotRow {
  id: number;
  account_id: number | null;
  platform_app_id: number | null;
  name: string;
  description: string | null;
  outgoing_url: string | null;
  avatar_url: string | null;
  bot_type: string;
  bot_config: string;
  access_token: string;
  secret: string;
  created_at: number;
  updated_at: number;
}

/** An inbox's bot, as agent_bot_inboxes links it. */
interface BotLink {
  agent_bot_id: number;
}

export type AgentBotFields = Pick<
  AgentBotRow,
  "name" | "description" | "outgoing_url" | "avatar_url" | "bot_type" | "bot_config"
>;

export class AgentBotsRepo {
  private readonly ofAccountStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byTokenStmt: TwoWayStatement;
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly setTokenStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly ofInboxStmt: TwoWayStatement;
  private readonly connectStmt: Statement;
  private readonly disconnectStmt: Statement;
  private readonly ofPlatformStmt: TwoWayStatement;
  private readonly inboxIdsStmt: TwoWayStatement;

  constructor(db: Database) {
    // An account sees its own bots and the platform's (account_id NULL), as Chatwoot's index does.
    this.ofAccountStmt = new TwoWayStatement(
      db,
      "SELECT * FROM agent_bots WHERE account_id = $account_id OR account_id IS NULL ORDER BY id",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM agent_bots WHERE id = $id");
    this.byTokenStmt = new TwoWayStatement(db, "SELECT * FROM agent_bots WHERE access_token = $token");
    this.insertStmt = db.prepare(
      `INSERT INTO agent_bots (account_id, platform_app_id, name, description, outgoing_url, avatar_url, bot_type, bot_config, access_token, secret, created_at, updated_at)
       VALUES ($account_id, $platform_app_id, $name, $description, $outgoing_url, $avatar_url, $bot_type, $bot_config, $access_token, $secret, $now, $now)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE agent_bots SET name = $name, description = $description, outgoing_url = $outgoing_url, avatar_url = $avatar_url,
         bot_type = $bot_type, bot_config = $bot_config, updated_at = $now WHERE id = $id`,
    );
    this.setTokenStmt = db.prepare("UPDATE agent_bots SET access_token = $token, updated_at = $now WHERE id = $id");
    this.deleteStmt = db.prepare("DELETE FROM agent_bots WHERE id = $id");
    // On every message write (the bot fan-out): two primary-key lookups, whose plans no statistics
    // can turn into scans (a join could, measured by test/db/planner-statistics.test.ts).
    this.ofInboxStmt = new TwoWayStatement(db, "SELECT agent_bot_id FROM agent_bot_inboxes WHERE inbox_id = $inbox_id");
    this.connectStmt = db.prepare(
      `INSERT INTO agent_bot_inboxes (inbox_id, agent_bot_id, account_id, created_at) VALUES ($inbox_id, $bot_id, $account_id, $now)
       ON CONFLICT (inbox_id) DO UPDATE SET agent_bot_id = excluded.agent_bot_id, created_at = excluded.created_at`,
    );
    this.disconnectStmt = db.prepare("DELETE FROM agent_bot_inboxes WHERE inbox_id = $inbox_id");
    this.ofPlatformStmt = new TwoWayStatement(db, "SELECT * FROM agent_bots WHERE platform_app_id = $app ORDER BY id");
    this.inboxIdsStmt = new TwoWayStatement(
      db,
      "SELECT inbox_id FROM agent_bot_inboxes WHERE agent_bot_id = $bot_id AND account_id = $account_id ORDER BY inbox_id",
    );
  }

  /** A platform app's own bots (no account), oldest first. */
  *readOfPlatformApp(appId: number): Reads<AgentBotRow[]> {
    return (yield this.ofPlatformStmt.all({ app: appId })) as AgentBotRow[];
  }

  *readOfAccount(accountId: number): Reads<AgentBotRow[]> {
    return (yield this.ofAccountStmt.all({ account_id: accountId })) as AgentBotRow[];
  }

  byId(id: number): AgentBotRow | null {
    return (this.byIdStmt.statement.get({ id }) as AgentBotRow | null) ?? null;
  }

  *readById(id: number): Reads<AgentBotRow | null> {
    return (yield this.byIdStmt.get({ id })) as AgentBotRow | null;
  }

  /** The bot whose token this is (a request's caller: awaited on PostgreSQL, src/domain/auth.service.ts). */
  *readByToken(token: string): Reads<AgentBotRow | null> {
    return (yield this.byTokenStmt.get({ token })) as AgentBotRow | null;
  }

  insert(
    owner: { account_id: number | null; platform_app_id: number | null },
    f: AgentBotFields,
    access_token: string,
    secret: string,
    now: number,
  ): number {
    return Number(this.insertStmt.run({ ...owner, ...f, access_token, secret, now }).lastInsertRowid);
  }

  update(id: number, f: AgentBotFields, now: number): void {
    this.updateStmt.run({ ...f, id, now });
  }

  setToken(id: number, token: string, now: number): void {
    this.setTokenStmt.run({ id, token, now });
  }

  delete(id: number): void {
    this.deleteStmt.run({ id });
  }

  ofInbox(inboxId: number): AgentBotRow | null {
    const link = this.ofInboxStmt.statement.get({ inbox_id: inboxId }) as BotLink | null;
    return link ? this.byId(link.agent_bot_id) : null;
  }

  /** ofInbox for a read-only route (awaited on PostgreSQL); the message writes keep the form above. */
  *readOfInbox(inboxId: number): Reads<AgentBotRow | null> {
    const link = (yield this.ofInboxStmt.get({ inbox_id: inboxId })) as BotLink | null;
    return link ? yield* nested(this.readById(link.agent_bot_id)) : null;
  }

  connect(accountId: number, inboxId: number, botId: number, now: number): void {
    this.connectStmt.run({ account_id: accountId, inbox_id: inboxId, bot_id: botId, now });
  }

  disconnect(inboxId: number): void {
    this.disconnectStmt.run({ inbox_id: inboxId });
  }

  /** The inboxes of this account the bot answers. */
  *readInboxIds(accountId: number, botId: number): Reads<number[]> {
    const rows = (yield this.inboxIdsStmt.all({ bot_id: botId, account_id: accountId })) as { inbox_id: number }[];
    return rows.map((r) => r.inbox_id);
  }
}
