// Wire shapes of contacts: the account API record (Chatwoot's contact partial, the spec's Contact),
// push data (conversation meta, message senders) and webhook data (contact_* events).
import type { ContactInboxRow } from "../../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../../db/contacts.repo.ts";
import type { InboxRef } from "../../db/conversation-refs.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";
import { channelTypeName } from "../channels.ts";

export interface AccountRef {
  id: number;
  name: string;
}

export function attributes(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

/** The slim inbox inside a contact's contact_inboxes. API inboxes have no channel row of their own: channel_id is the inbox id. */
export function inboxSlim(inbox: InboxRef) {
  const channel = attributes(inbox.channel_attributes);
  return {
    id: inbox.id,
    avatar_url: "",
    channel_id: inbox.id,
    name: inbox.name,
    channel_type: channelTypeName(inbox.channel_type),
    provider: typeof channel.provider === "string" ? channel.provider : null,
  };
}

export function contactInboxOf(ci: ContactInboxRow, inbox: InboxRef) {
  return { source_id: ci.source_id, inbox: inboxSlim(inbox) };
}

/** The account API contact; contact_inboxes only when given (the conversation meta leaves them out). */
export function contactOf(c: ContactRow, contactInboxes?: ReturnType<typeof contactInboxOf>[]) {
  return {
    additional_attributes: attributes(c.additional_attributes),
    availability_status: "offline",
    email: c.email,
    id: c.id,
    name: c.name,
    phone_number: c.phone_number,
    blocked: c.blocked === 1,
    identifier: c.identifier,
    thumbnail: c.avatar_url ?? "",
    custom_attributes: attributes(c.custom_attributes),
    // Chatwoot leaves the key out when the contact was never active.
    ...(c.last_activity_at === null ? {} : { last_activity_at: c.last_activity_at }),
    created_at: c.created_at,
    ...(contactInboxes ? { contact_inboxes: contactInboxes } : {}),
  };
}

export function contactPushData(c: ContactRow) {
  return {
    additional_attributes: attributes(c.additional_attributes),
    custom_attributes: attributes(c.custom_attributes),
    email: c.email,
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    phone_number: c.phone_number,
    thumbnail: c.avatar_url ?? "",
    blocked: c.blocked === 1,
    type: "contact" as const,
  };
}

/** Webhook data: push data with the account and `avatar`, without `type`. */
export function contactWebhookData(c: ContactRow, account: AccountRef) {
  const { type: _, ...push } = contactPushData(c);
  return { account: { id: account.id, name: account.name }, avatar: c.avatar_url ?? "", ...push };
}

/** Columns reported in contact_updated's changed_attributes, with their wire values (Rails' JSON of the column). */
const TRACKED: Record<string, (c: ContactRow) => unknown> = {
  name: (c) => c.name,
  email: (c) => c.email,
  phone_number: (c) => c.phone_number,
  identifier: (c) => c.identifier,
  blocked: (c) => c.blocked === 1,
  additional_attributes: (c) => attributes(c.additional_attributes),
  custom_attributes: (c) => attributes(c.custom_attributes),
  last_activity_at: (c) => isoFromSeconds(c.last_activity_at),
  updated_at: (c) => isoFromSeconds(c.updated_at),
};

export function contactChanges(before: ContactRow, after: ContactRow): ChangedAttribute[] {
  return changesOf(TRACKED, before, after);
}

/** Chatwoot's changed_attributes: an array of single-key objects. */
export type ChangedAttribute = Record<string, { previous_value: unknown; current_value: unknown }>;

export function changesOf<T>(tracked: Record<string, (row: T) => unknown>, before: T, after: T): ChangedAttribute[] {
  const out: ChangedAttribute[] = [];
  for (const [key, read] of Object.entries(tracked)) {
    const prev = read(before);
    const next = read(after);
    const changed = JSON.stringify(prev) !== JSON.stringify(next);
    // Rails stamps updated_at (to the microsecond) on every save that changes something, so it is
    // always listed with the other changes, even when our clock shows the same instant.
    if (changed || (key === "updated_at" && out.length > 0))
      out.push({ [key]: { previous_value: prev, current_value: next } });
  }
  return out;
}
