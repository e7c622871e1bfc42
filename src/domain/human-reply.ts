// What counts as a human reply (chatwoot-behaviour §3.10): an outgoing, public message sent by a
// user, not written by an automation rule or a campaign. One definition for the conversation's
// first_reply_created_at / waiting_since bookkeeping and for the reporting events, so the report's
// first response is always the reply the conversation shows as its first.
// (db/messages.repo.ts counts the same thing in SQL: humanRepliesStmt.)
import { OUTGOING, type MessageRow } from "../db/messages.repo.ts";

type ReplyFields = Pick<
  MessageRow,
  "message_type" | "private" | "sender_type" | "content_attributes" | "additional_attributes"
>;

export function isHumanReply(m: ReplyFields): boolean {
  return m.message_type === OUTGOING && m.private === 0 && m.sender_type === "User" && !isAutomated(m);
}

function isAutomated(m: ReplyFields): boolean {
  const attrs = JSON.parse(m.content_attributes) as Record<string, unknown>;
  if (attrs.automation_rule_id !== undefined && attrs.automation_rule_id !== null) return true;
  const extra = JSON.parse(m.additional_attributes) as Record<string, unknown>;
  return extra.campaign_id !== undefined && extra.campaign_id !== null;
}
