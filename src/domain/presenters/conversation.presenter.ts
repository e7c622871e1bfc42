// Wire shapes of conversations: the account API object (Chatwoot's conversation partial, §3.3)
// and push data (webhook/realtime payloads, §8.2). `id` is always the per-account display id.
import type { ConversationRow } from "../../db/conversations.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";
import { channelTypeName } from "../channels.ts";
import type { ConversationView } from "../conversation-view.ts";
import { attributes, changesOf, contactOf, contactPushData, type ChangedAttribute } from "./contact.presenter.ts";
import { messageOf, messagePushData, messageScope } from "./message.presenter.ts";
import { agentOf, userPushData } from "./user.presenter.ts";

export function teamOf(v: ConversationView) {
  const t = v.team!;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    allow_auto_assign: t.allow_auto_assign === 1,
    account_id: t.account_id,
    is_member: v.teamIsMember,
  };
}

/** The account API conversation object. */
export function conversationOf(v: ConversationView) {
  const r = v.row;
  const scope = messageScope(v);
  const assignee = v.assignee?.membership ? agentOf(v.assignee.user, v.assignee.membership) : null;
  const last = v.lastAny ? messageOf(v.lastAny, scope) : null;
  return {
    meta: {
      sender: contactOf(v.contact),
      channel: channelTypeName(v.inbox.channel_type),
      ...(assignee ? { assignee, assignee_type: "User" } : {}),
      ...(v.team ? { team: teamOf(v) } : {}),
      hmac_verified: v.contactInbox.hmac_verified === 1,
    },
    id: r.display_id,
    messages: last ? [last] : [],
    account_id: r.account_id,
    uuid: r.uuid,
    inbox_id: r.inbox_id,
    additional_attributes: attributes(r.additional_attributes),
    custom_attributes: attributes(r.custom_attributes),
    agent_last_seen_at: r.agent_last_seen_at ?? 0,
    assignee_last_seen_at: r.assignee_last_seen_at ?? 0,
    contact_last_seen_at: r.contact_last_seen_at ?? 0,
    can_reply: true,
    labels: v.labels,
    muted: v.contact.blocked === 1,
    snoozed_until: isoFromSeconds(r.snoozed_until),
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at_ms / 1000,
    timestamp: r.last_activity_at,
    last_activity_at: r.last_activity_at,
    first_reply_created_at: r.first_reply_created_at ?? 0,
    waiting_since: r.waiting_since ?? 0,
    unread_count: v.unreadCount,
    // Usually the same message as the newest (not an activity): presented once, written out twice.
    last_non_activity_message:
      v.lastNonActivity === v.lastAny ? last : v.lastNonActivity ? messageOf(v.lastNonActivity, scope) : null,
    priority: r.priority,
    sla_policy_id: null as number | null,
  };
}

/** Chatwoot's conversation push data: the payload of conversation_* events and message events' `conversation`. */
export function conversationPushData(v: ConversationView) {
  const r = v.row;
  const ci = v.contactInbox;
  return {
    additional_attributes: attributes(r.additional_attributes),
    can_reply: true,
    channel: channelTypeName(v.inbox.channel_type),
    contact_inbox: {
      id: ci.id,
      contact_id: ci.contact_id,
      inbox_id: ci.inbox_id,
      source_id: ci.source_id,
      created_at: isoFromSeconds(ci.created_at),
      updated_at: isoFromSeconds(ci.updated_at),
      hmac_verified: ci.hmac_verified === 1,
      pubsub_token: ci.pubsub_token,
    },
    id: r.display_id,
    inbox_id: r.inbox_id,
    messages: v.lastChat ? [messagePushData(v.lastChat, messageScope(v))] : [],
    labels: v.labels,
    meta: {
      sender: contactPushData(v.contact),
      assignee: v.assignee ? userPushData(v.assignee.user, v.assignee.membership) : null,
      assignee_type: v.assignee ? "User" : null,
      team: v.team ? { id: v.team.id, name: v.team.name } : null,
      hmac_verified: ci.hmac_verified === 1,
    },
    status: r.status,
    custom_attributes: attributes(r.custom_attributes),
    snoozed_until: isoFromSeconds(r.snoozed_until),
    unread_count: v.unreadCount,
    first_reply_created_at: isoFromSeconds(r.first_reply_created_at),
    priority: r.priority,
    waiting_since: r.waiting_since ?? 0,
    agent_last_seen_at: r.agent_last_seen_at ?? 0,
    contact_last_seen_at: r.contact_last_seen_at ?? 0,
    last_activity_at: r.last_activity_at,
    timestamp: r.last_activity_at,
    created_at: r.created_at,
    updated_at: r.updated_at_ms / 1000,
  };
}

const iso = (s: number | null) => isoFromSeconds(s);

/** Columns reported in conversation_updated's changed_attributes, as Rails serialises them. */
const TRACKED: Record<string, (r: ConversationRow) => unknown> = {
  status: (r) => r.status,
  priority: (r) => r.priority,
  assignee_id: (r) => r.assignee_id,
  team_id: (r) => r.team_id,
  snoozed_until: (r) => iso(r.snoozed_until),
  waiting_since: (r) => iso(r.waiting_since),
  first_reply_created_at: (r) => iso(r.first_reply_created_at),
  agent_last_seen_at: (r) => iso(r.agent_last_seen_at),
  assignee_last_seen_at: (r) => iso(r.assignee_last_seen_at),
  contact_last_seen_at: (r) => iso(r.contact_last_seen_at),
  last_activity_at: (r) => iso(r.last_activity_at),
  additional_attributes: (r) => attributes(r.additional_attributes),
  custom_attributes: (r) => attributes(r.custom_attributes),
  updated_at: (r) => new Date(r.updated_at_ms).toISOString(),
};

export function conversationChanges(
  before: ConversationRow,
  after: ConversationRow,
  labels?: { before: string[]; after: string[] },
): ChangedAttribute[] {
  const out = changesOf(TRACKED, before, after);
  if (labels && JSON.stringify(labels.before) !== JSON.stringify(labels.after)) {
    out.splice(out.length - 1, 0, { label_list: { previous_value: labels.before, current_value: labels.after } });
  }
  return out;
}

/** Chatwoot emits conversation_updated only when one of these changed (§8.1). */
export const UPDATE_TRIGGERS = [
  "status",
  "priority",
  "assignee_id",
  "team_id",
  "snoozed_until",
  "waiting_since",
  "first_reply_created_at",
  "custom_attributes",
  "label_list",
];

export function triggersUpdate(changes: ChangedAttribute[]): boolean {
  return changes.some((c) => UPDATE_TRIGGERS.includes(Object.keys(c)[0]!));
}
