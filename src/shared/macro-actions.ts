// What a macro may do: the automation catalogue's conversation actions. Shared so that the server's
// check (src/domain/macros.service.ts) and the web app's macro form offer the same list.
import { AUTOMATION_ACTIONS, type AutomationActionName } from "./automation-actions.ts";

/** What only automation does: a macro is run by a person on a conversation, not by an event. */
const AUTOMATION_ONLY: ReadonlySet<string> = new Set([
  "send_webhook_event",
  "send_email_to_team",
  "send_email_transcript",
  "send_attachment",
]);

export const MACRO_ACTIONS: readonly AutomationActionName[] = AUTOMATION_ACTIONS.filter((a) => !AUTOMATION_ONLY.has(a));
