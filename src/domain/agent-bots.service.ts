// Agent bots (Chatwoot's): an account's administrators create, change and delete the account's
// bots and connect one to an inbox; every member sees the account's bots and the platform's. A
// platform app manages its own bots (no account) through the Platform API. A bot's access_token
// acts on the account API as the bot (src/domain/auth.service.ts, BOT_ROUTES); its secret signs the
// deliveries to its outgoing_url.
import type { AgentBotFields, AgentBotRow, AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { PlatformAppRow } from "../db/platform.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { newAccessToken } from "../lib/tokens.ts";
import { generateSecret } from "../lib/webhook-signature.ts";
import { parseId, requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { inboxFound } from "./conversation-access.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { optionalString, requiredString } from "./validate.ts";

export interface AgentBotInput {
  name?: unknown;
  description?: unknown;
  outgoing_url?: unknown;
  avatar_url?: unknown;
  bot_type?: unknown;
  bot_config?: unknown;
}

interface Deps {
  agentBots: AgentBotsRepo;
  conversationRefs: ConversationRefsRepo;
  writeTx: WriteTx;
  clock: Clock;
}

function urlValue(errors: FieldErrors, field: string, raw: unknown): string | null | undefined {
  const v = optionalString(errors, field, raw, 2048);
  if (v && !/^https?:\/\/[^\s]+$/i.test(v)) {
    errors.add(field, "must be an http:// or https:// URL", "invalid");
    return undefined;
  }
  return v;
}

export class AgentBotsService {
  constructor(private readonly d: Deps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal): AgentBotRow[] | Promise<AgentBotRow[]> {
    return readSoon(this.d.agentBots.readOfAccount(p.account.id));
  }

  /** A bot the account sees (its own or the platform's), or 404, for a read-only route, as list(). */
  show(p: AccountPrincipal, rawId: unknown): AgentBotRow | Promise<AgentBotRow> {
    return readSoon(this.readSeen(p, rawId));
  }

  async create(p: AccountPrincipal, input: AgentBotInput): Promise<AgentBotRow> {
    requireAdministrator(p);
    return this.insert({ account_id: p.account.id, platform_app_id: null }, input);
  }

  async update(p: AccountPrincipal, rawId: unknown, input: AgentBotInput): Promise<AgentBotRow> {
    requireAdministrator(p);
    return this.change(() => this.readOwn(p, rawId), input);
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    await this.remove(() => this.readOwn(p, rawId));
  }

  /** A new access_token for the bot (the old one stops working at once). */
  async resetAccessToken(p: AccountPrincipal, rawId: unknown): Promise<AgentBotRow> {
    requireAdministrator(p);
    const { agentBots, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const bot = yield* self.readOwn(p, rawId);
      yield* agentBots.setTokenSteps(bot.id, newAccessToken(), unixSeconds(clock));
      return (yield* agentBots.readById(bot.id))!;
    });
  }

  /** POST inboxes/:id/set_agent_bot: connects the bot (null: none) to the inbox. */
  async setForInbox(p: AccountPrincipal, rawInboxId: unknown, rawBot: unknown): Promise<void> {
    requireAdministrator(p);
    const { agentBots, clock } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      // The inbox's 404 first, then the bot's, as before.
      const inbox = yield* self.readInbox(p, rawInboxId);
      if (rawBot === null || rawBot === undefined || rawBot === "") yield* agentBots.disconnectSteps(inbox);
      else {
        const bot = yield* self.readSeen(p, rawBot);
        yield* agentBots.connectSteps(p.account.id, inbox, bot.id, unixSeconds(clock));
      }
    });
  }

  /** The inbox's bot (null: none), as list(); any member may ask, as before. */
  ofInbox(p: AccountPrincipal, rawInboxId: unknown): AgentBotRow | null | Promise<AgentBotRow | null> {
    return readSoon(chain(this.readInbox(p, rawInboxId), (inboxId) => this.d.agentBots.readOfInbox(inboxId)));
  }

  // ---- the Platform API ----

  /** The app's own bots, awaited on PostgreSQL's read pool (in place on SQLite). */
  platformList(app: PlatformAppRow): AgentBotRow[] | Promise<AgentBotRow[]> {
    return readSoon(this.d.agentBots.readOfPlatformApp(app.id));
  }

  /** One of the app's own bots, awaited on PostgreSQL (the GET route). */
  platformShow(app: PlatformAppRow, rawId: unknown): AgentBotRow | Promise<AgentBotRow> {
    return readSoon(this.readPlatformBot(app, rawId));
  }

  platformCreate(app: PlatformAppRow, input: AgentBotInput): Promise<AgentBotRow> {
    return this.insert({ account_id: null, platform_app_id: app.id }, input);
  }

  platformUpdate(app: PlatformAppRow, rawId: unknown, input: AgentBotInput): Promise<AgentBotRow> {
    return this.change(() => this.readPlatformBot(app, rawId), input);
  }

  async platformDelete(app: PlatformAppRow, rawId: unknown): Promise<void> {
    await this.remove(() => this.readPlatformBot(app, rawId));
  }

  /** Validated before the body, which reads nothing but the new row. */
  private insert(
    owner: { account_id: number | null; platform_app_id: number | null },
    input: AgentBotInput,
  ): Promise<AgentBotRow> {
    const fields = this.fields(input, null);
    const { agentBots, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      const id = yield* agentBots.insertSteps(owner, fields, newAccessToken(), generateSecret(), unixSeconds(clock));
      return (yield* agentBots.readById(id))!;
    });
  }

  /** The bot `readBot` finds (its 404 first), then the input's 422, then the update. */
  private change(readBot: () => Reads<AgentBotRow>, input: AgentBotInput): Promise<AgentBotRow> {
    const { agentBots, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const bot = yield* readBot();
      const fields = self.fields(input, bot);
      yield* agentBots.updateSteps(bot.id, fields, unixSeconds(clock));
      return (yield* agentBots.readById(bot.id))!;
    });
  }

  private async remove(readBot: () => Reads<AgentBotRow>): Promise<void> {
    const { agentBots } = this.d;
    await this.d.writeTx.steps(function* () {
      const bot = yield* readBot();
      yield* agentBots.deleteSteps(bot.id);
    });
  }

  private fields(input: AgentBotInput, current: AgentBotRow | null): AgentBotFields {
    const errors = new FieldErrors();
    const has = (k: keyof AgentBotInput) => input[k] !== undefined;
    const name = has("name") || !current ? requiredString(errors, "name", input.name) : current.name;
    const description = has("description")
      ? optionalString(errors, "description", input.description, 1000)
      : (current?.description ?? null);
    const outgoing = has("outgoing_url")
      ? urlValue(errors, "outgoing_url", input.outgoing_url)
      : (current?.outgoing_url ?? null);
    const avatar = has("avatar_url") ? urlValue(errors, "avatar_url", input.avatar_url) : (current?.avatar_url ?? null);
    if (has("bot_type") && input.bot_type !== "webhook" && input.bot_type !== 0 && input.bot_type !== "0") {
      errors.add("bot_type", "must be webhook (Parley runs no CSML bots)", "invalid");
    }
    let config = current?.bot_config ?? "{}";
    if (has("bot_config")) {
      const c = input.bot_config;
      if (c === null || typeof c !== "object" || Array.isArray(c))
        errors.add("bot_config", "must be an object", "invalid");
      else config = JSON.stringify(c);
    }
    errors.throwIfAny();
    return {
      name: name!,
      description: description ?? null,
      outgoing_url: outgoing ?? null,
      avatar_url: avatar ?? null,
      bot_type: "webhook",
      bot_config: config,
    };
  }

  /** The account's own bot (a platform bot cannot be changed through the account API): 404 otherwise. */
  private *readOwn(p: AccountPrincipal, rawId: unknown): Reads<AgentBotRow> {
    const id = parseId(rawId);
    const bot = id === null ? null : yield* nested(this.d.agentBots.readById(id));
    if (!bot || bot.account_id !== p.account.id) throw this.notFound(rawId);
    return bot;
  }

  /** One of the app's own bots; another app's, an account's or an unknown id is 404. */
  private *readPlatformBot(app: PlatformAppRow, rawId: unknown): Reads<AgentBotRow> {
    const id = parseId(rawId);
    const bot = id === null ? null : yield* nested(this.d.agentBots.readById(id));
    if (!bot || bot.platform_app_id !== app.id) throw this.notFound(rawId);
    return bot;
  }

  /** A bot the account sees: its own or the platform's (404 otherwise). */
  private *readSeen(p: AccountPrincipal, rawId: unknown): Reads<AgentBotRow> {
    const id = parseId(rawId);
    const bot = id === null ? null : yield* nested(this.d.agentBots.readById(id));
    if (!bot || (bot.account_id !== null && bot.account_id !== p.account.id)) throw this.notFound(rawId);
    return bot;
  }

  private *readInbox(p: AccountPrincipal, rawId: unknown): Reads<number> {
    const id = parseId(rawId);
    return inboxFound(rawId, id === null ? null : yield* nested(this.d.conversationRefs.readInbox(p.account.id, id)))
      .id;
  }

  private notFound(rawId: unknown): NotFoundError {
    return new NotFoundError("Agent bot", "id", `no agent bot ${String(rawId)} for this account`);
  }
}
