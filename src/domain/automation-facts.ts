// The facts a rule's conditions are evaluated over, read from the rows as they are when the rule
// runs (Chatwoot also queries the current rows), plus what the event alone knows: the triggering
// message and, for conversation_updated, what changed.
import type { ContactRow } from "../db/contacts.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import { MESSAGE_TYPES, type MessageRow } from "../db/messages.repo.ts";
import type { Facts } from "./automation-match.ts";

type Change = { previous_value: unknown; current_value: unknown };
export type ChangeMap = Record<string, Change>;

const objectOf = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

export function factsOf(
  conversation: ConversationRow,
  contact: ContactRow,
  labels: string[],
  message: MessageRow | null,
  changed: ChangeMap | undefined,
  now: number,
): Facts {
  return {
    conversation: {
      status: conversation.status,
      priority: conversation.priority,
      inbox_id: conversation.inbox_id,
      team_id: conversation.team_id,
      assignee_id: conversation.assignee_id,
      additional_attributes: objectOf(conversation.additional_attributes),
      custom_attributes: objectOf(conversation.custom_attributes),
      created_at: conversation.created_at,
      last_activity_at: conversation.last_activity_at,
    },
    contact: {
      email: contact.email,
      phone_number: contact.phone_number,
      name: contact.name,
      identifier: contact.identifier,
      additional_attributes: objectOf(contact.additional_attributes),
      custom_attributes: objectOf(contact.custom_attributes),
    },
    ...(message
      ? {
          message: {
            message_type: MESSAGE_TYPES[message.message_type] ?? message.message_type,
            content: message.content,
          },
        }
      : {}),
    labels,
    ...(changed ? { changed_attributes: changed } : {}),
    now,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * conversation_updated's changed_attributes (Chatwoot's list of single-key objects) keyed the way
 * conditions name attributes: additional and custom attribute changes become changes of their own
 * keys (browser_language, a custom key…), label_list becomes labels. The conversation's own columns
 * win over a same-named key inside the attribute objects.
 */
export function flattenChanges(raw: unknown): ChangeMap {
  const out: ChangeMap = {};
  const direct: ChangeMap = {};
  for (const item of Array.isArray(raw) ? raw : []) {
    if (!isObject(item)) continue;
    for (const [key, change] of Object.entries(item)) {
      if (!isObject(change)) continue;
      const { previous_value: before, current_value: after } = change;
      if (key === "additional_attributes" || key === "custom_attributes") {
        const b = isObject(before) ? before : {};
        const a = isObject(after) ? after : {};
        for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
          if (JSON.stringify(b[k]) !== JSON.stringify(a[k]))
            out[k] = { previous_value: b[k] ?? null, current_value: a[k] ?? null };
        }
      } else {
        direct[key === "label_list" ? "labels" : key] = { previous_value: before, current_value: after };
      }
    }
  }
  return Object.assign(out, direct);
}
