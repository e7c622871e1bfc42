// Who a conversation may be assigned to, and the activity message an assignment change writes
// (Chatwoot's wording). Used when a conversation is created and when its assignment changes.
import type { ConversationRefsRepo, InboxRef, MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { Reads } from "../db/reads.ts";
import type { Acting } from "./acting.ts";
import { assigneeActivity, teamActivity } from "./activity-messages.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { ValidationError } from "./errors.ts";

export interface ConversationAssignmentDeps {
  conversationRefs: ConversationRefsRepo;
  events: ConversationEvents;
}

export class ConversationAssignment {
  constructor(private readonly d: ConversationAssignmentDeps) {}

  /** Activity for an assignment change: a team change names the team (and the new assignee), else the assignee. */
  *activitySteps(a: Acting, before: ConversationRow, after: ConversationRow): Reads<ConversationRow> {
    const members = yield* this.d.conversationRefs.readMembers(
      a.account.id,
      after.assignee_id === null ? [] : [after.assignee_id],
    );
    const assignee = after.assignee_id === null ? null : (members.get(after.assignee_id)?.user ?? null);
    if (before.team_id !== after.team_id) {
      const teams = yield* this.d.conversationRefs.readTeams(
        [before.team_id, after.team_id].filter((t): t is number => t !== null),
      );
      const changedAssignee = before.assignee_id !== after.assignee_id && assignee ? assignee.name : null;
      const text = teamActivity(
        a,
        after.team_id === null ? null : (teams.get(after.team_id)?.name ?? null),
        before.team_id === null ? null : (teams.get(before.team_id)?.name ?? null),
        changedAssignee,
      );
      return yield* this.d.events.activitySteps(a, after, text);
    }
    if (before.assignee_id !== after.assignee_id)
      return yield* this.d.events.activitySteps(a, after, assigneeActivity(a, assignee));
    return after;
  }

  /** An assignee must be a member of the account who can reach the inbox (administrator or inbox member). */
  *readAssignee(a: Acting, id: number | null, inbox: InboxRef | { id: number }): Reads<MemberRef | null> {
    if (id === null) return null;
    const refs = this.d.conversationRefs;
    const m = (yield* refs.readMembers(a.account.id, [id])).get(id) ?? null;
    if (!m?.membership) throw ValidationError.of("assignee_id", `no agent ${id} in this account`, "not_found");
    if (m.membership.role !== "administrator" && !(yield* refs.readIsInboxMember(inbox.id, id))) {
      throw ValidationError.of("assignee_id", `agent ${id} is not a member of the conversation's inbox`, "invalid");
    }
    return m;
  }

  /** A team must belong to the account. */
  *readTeam(a: Acting, id: number | null): Reads<TeamRef | null> {
    if (id === null) return null;
    const t = yield* this.d.conversationRefs.readTeam(a.account.id, id);
    if (!t) throw ValidationError.of("team_id", `no team ${id} in this account`, "not_found");
    return t;
  }
}
