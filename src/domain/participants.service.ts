// Conversation participants (Chatwoot's): agents who follow a conversation besides its assignee.
// A participant must be able to see the conversation: an administrator, or a member of its inbox
// (Chatwoot's "must have inbox access").
import type { ConversationRefsRepo, MemberRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { ParticipantsRepo } from "../db/participants.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { parseId } from "./auth.service.ts";
import { FieldErrors, ValidationError } from "./errors.ts";

export class ParticipantsService {
  constructor(
    private readonly d: {
      participants: ParticipantsRepo;
      conversationRefs: ConversationRefsRepo;
      writeTx: WriteTx;
      clock: Clock;
    },
  ) {}

  /** The agents following the conversation: a read-only route's (awaited on PostgreSQL: src/db/reads.ts). */
  *readList(a: Acting, row: ConversationRow): Reads<MemberRef[]> {
    const ids = yield* nested(this.d.participants.readUserIds(row.id));
    return following(ids, yield* nested(this.d.conversationRefs.readMembers(a.account.id, ids)));
  }

  /** Adds these agents (those already following stay); answers the ones asked for. */
  async add(a: Acting, row: ConversationRow, rawIds: unknown): Promise<MemberRef[]> {
    const { participants, conversationRefs, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const ids = yield* self.readUserIds(a, row, rawIds);
      for (const id of ids) yield* participants.addSteps(row.account_id, row.id, id, unixSeconds(clock));
      return following(ids, yield* conversationRefs.readMembers(a.account.id, ids));
    });
  }

  /** Makes the participants exactly these agents; answers the new list. */
  async replace(a: Acting, row: ConversationRow, rawIds: unknown): Promise<MemberRef[]> {
    const { participants, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const ids = yield* self.readUserIds(a, row, rawIds);
      for (const id of yield* participants.readUserIds(row.id))
        if (!ids.includes(id)) yield* participants.removeSteps(row.id, id);
      for (const id of ids) yield* participants.addSteps(row.account_id, row.id, id, unixSeconds(clock));
      return yield* self.readList(a, row);
    });
  }

  async remove(row: ConversationRow, rawIds: unknown): Promise<void> {
    const { participants } = this.d;
    await this.d.writeTx.steps(function* () {
      for (const id of idList(rawIds)) yield* participants.removeSteps(row.id, id);
    });
  }

  /** The ids, each an agent of this account who may see the conversation (422 naming the others). */
  private *readUserIds(a: Acting, row: ConversationRow, raw: unknown): Reads<number[]> {
    const ids = idList(raw);
    const found = yield* this.d.conversationRefs.readMembers(a.account.id, ids);
    const errors = new FieldErrors();
    for (const id of ids) {
      const m = found.get(id);
      if (!m?.membership) errors.add("user_ids", `no agent ${id} in this account`, "not_found");
      else if (
        m.membership.role !== "administrator" &&
        !(yield* this.d.conversationRefs.readIsInboxMember(row.inbox_id, id))
      ) {
        errors.add("user_ids", `${m.user.name} must have access to the conversation's inbox`, "invalid");
      }
    }
    errors.throwIfAny();
    return ids;
  }
}

/** The agents among `ids` still in the account, in the order of `ids`. */
function following(ids: readonly number[], found: Map<number, MemberRef>): MemberRef[] {
  return ids.flatMap((id) => {
    const m = found.get(id);
    return m?.membership ? [m] : [];
  });
}

function idList(raw: unknown): number[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? null : [raw];
  if (!list || list.length === 0) throw ValidationError.of("user_ids", "must be a list of agent ids", "required");
  if (list.length > 100) throw ValidationError.of("user_ids", "may name at most 100 agents", "too_long");
  const ids = list.map((x) => parseId(x));
  if (ids.some((x) => x === null)) throw ValidationError.of("user_ids", "must be a list of agent ids", "invalid");
  return [...new Set(ids as number[])];
}
