// Agent bots and the inboxes they answer (migration 018).
import type { Database } from "bun:sqlite";
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
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly setTokenStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly ofInboxStmt: TwoWayStatement;
  private readonly connectStmt: TwoWayStatement;
  private readonly disconnectStmt: TwoWayStatement;
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
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO agent_bots (account_id, platform_app_id, name, description, outgoing_url, avatar_url, bot_type, bot_config, access_token, secret, created_at, updated_at)
       VALUES ($account_id, $platform_app_id, $name, $description, $outgoing_url, $avatar_url, $bot_type, $bot_config, $access_token, $secret, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE agent_bots SET name = $name, description = $description, outgoing_url = $outgoing_url, avatar_url = $avatar_url,
         bot_type = $bot_type, bot_config = $bot_config, updated_at = $now WHERE id = $id`,
    );
    this.setTokenStmt = new TwoWayStatement(
      db,
      "UPDATE agent_bots SET access_token = $token, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM agent_bots WHERE id = $id");
    // The inbox's bot as two primary-key lookups, whose plans no statistics can turn into scans (a
    // join could, measured by test/db/planner-statistics.test.ts).
    this.ofInboxStmt = new TwoWayStatement(db, "SELECT agent_bot_id FROM agent_bot_inboxes WHERE inbox_id = $inbox_id");
    this.connectStmt = new TwoWayStatement(
      db,
      `INSERT INTO agent_bot_inboxes (inbox_id, agent_bot_id, account_id, created_at) VALUES ($inbox_id, $bot_id, $account_id, $now)
       ON CONFLICT (inbox_id) DO UPDATE SET agent_bot_id = excluded.agent_bot_id, created_at = excluded.created_at`,
    );
    this.disconnectStmt = new TwoWayStatement(db, "DELETE FROM agent_bot_inboxes WHERE inbox_id = $inbox_id");
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

  *readById(id: number): Reads<AgentBotRow | null> {
    return (yield this.byIdStmt.get({ id })) as AgentBotRow | null;
  }

  /** The bot whose token this is (a request's caller: awaited on PostgreSQL, src/domain/auth.service.ts). */
  *readByToken(token: string): Reads<AgentBotRow | null> {
    return (yield this.byTokenStmt.get({ token })) as AgentBotRow | null;
  }

  *insertSteps(
    owner: { account_id: number | null; platform_app_id: number | null },
    f: AgentBotFields,
    access_token: string,
    secret: string,
    now: number,
  ): Reads<number> {
    return yield* this.insertStmt.insertSteps({ ...owner, ...f, access_token, secret, now });
  }

  *updateSteps(id: number, f: AgentBotFields, now: number): Reads<void> {
    yield this.updateStmt.write({ ...f, id, now });
  }

  *setTokenSteps(id: number, token: string, now: number): Reads<void> {
    yield this.setTokenStmt.write({ id, token, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }

  /** The inbox's bot, for its read-only route (awaited on PostgreSQL). */
  *readOfInbox(inboxId: number): Reads<AgentBotRow | null> {
    const link = (yield this.ofInboxStmt.get({ inbox_id: inboxId })) as BotLink | null;
    return link ? yield* nested(this.readById(link.agent_bot_id)) : null;
  }

  *connectSteps(accountId: number, inboxId: number, botId: number, now: number): Reads<void> {
    yield this.connectStmt.write({ account_id: accountId, inbox_id: inboxId, bot_id: botId, now });
  }

  *disconnectSteps(inboxId: number): Reads<void> {
    yield this.disconnectStmt.write({ inbox_id: inboxId });
  }

  /** The inboxes of this account the bot answers. */
  *readInboxIds(accountId: number, botId: number): Reads<number[]> {
    const rows = (yield this.inboxIdsStmt.all({ bot_id: botId, account_id: accountId })) as { inbox_id: number }[];
    return rows.map((r) => r.inbox_id);
  }
}
