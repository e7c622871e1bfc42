// A quoted reply, as Chatwoot's Messages::InReplyToMessageBuilder resolves it when a message is
// created: `content_attributes.in_reply_to` (a message id) or, without it, `in_reply_to_external_id`
// (the channel's id of that message, its source_id) must name a message of the same conversation;
// both keys are then set from that message, or both to null when it names none. WhatsApp bridges
// depend on it: Evolution API reads `in_reply_to_external_id` of an agent's reply to quote the
// customer's WhatsApp message, and sends both when a customer quotes one. It also keeps a message
// from pointing at another conversation's (or another account's) message.
import type { MessageRow } from "../db/messages.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import { parseId } from "./auth.service.ts";

/** The keys of content_attributes a quoted reply uses: they name a message, they say nothing. */
export const REPLY_KEYS: readonly string[] = ["in_reply_to", "in_reply_to_external_id"];

export interface ReplyLookups {
  /** A message of this conversation by id. */
  byId(id: number): Reads<MessageRow | null>;
  /** A message of this conversation by its channel id. */
  bySource(sourceId: string): Reads<MessageRow | null>;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== "";

/** Sets `in_reply_to` and `in_reply_to_external_id` in `attributes` (in place) when either was given. */
export function* resolveInReplyToSteps(attributes: Record<string, unknown>, find: ReplyLookups): Reads<void> {
  const byId = attributes.in_reply_to;
  const bySource = attributes.in_reply_to_external_id;
  if (!present(byId) && !present(bySource)) return;
  let found: MessageRow | null = null;
  if (present(byId)) {
    // Rails' find_by(id:) takes an integer or the text of one.
    const id = parseId(typeof byId === "string" ? byId.trim() : byId);
    found = id === null ? null : yield* nested(find.byId(id));
  } else if (typeof bySource === "string" || typeof bySource === "number")
    found = yield* nested(find.bySource(String(bySource)));
  attributes.in_reply_to = found?.id ?? null;
  attributes.in_reply_to_external_id = found?.source_id ?? null;
}
