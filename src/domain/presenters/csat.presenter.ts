// A CSAT survey answer as agents see it (Chatwoot's csat_survey_response partial): the contact and
// the assigned agent in their account API shapes, each left out when there is none.
import type { CsatResponseView } from "../csat.service.ts";
import { contactOf } from "./contact.presenter.ts";
import { agentOf } from "./user.presenter.ts";

export function csatResponseOf(v: CsatResponseView) {
  const r = v.row;
  return {
    id: r.id,
    rating: r.rating,
    feedback_message: r.feedback_message,
    account_id: r.account_id,
    message_id: r.message_id,
    ...(v.contact ? { contact: contactOf(v.contact) } : {}),
    conversation_id: r.display_id,
    ...(v.agent?.membership ? { assigned_agent: agentOf(v.agent.user, v.agent.membership) } : {}),
    created_at: r.created_at,
  };
}
