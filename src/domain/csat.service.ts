// CSAT (Chatwoot's CsatSurveyService and CSAT listener): when a conversation of an inbox with
// csat_survey_enabled becomes resolved, one `input_csat` template message asks the contact to rate
// it — once per conversation, however often it is reopened and resolved again ("not already sent",
// as Chatwoot checks). The contact's answer (public API) is kept per survey message.
import type { ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo, MemberRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { CsatRepo, CsatResponseListRow } from "../db/csat.repo.ts";
import type { InboxesRepo } from "../db/inboxes.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessageRow } from "../db/messages.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAsSystem, type Acting } from "./acting.ts";
import { pageNumber } from "./contact-input.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { ValidationError } from "./errors.ts";
import type { MessagesService } from "./messages.service.ts";
import type { CsatAnswer } from "./submitted-values.ts";

/** Chatwoot's default survey text (conversations.templates.csat_input_message_body). */
export const DEFAULT_CSAT_MESSAGE = "Please rate the conversation";
export const CSAT_DISPLAY_TYPES = ["emoji", "star"] as const;
export const CSAT_PER_PAGE = 25;

export interface CsatDeps {
  csat: CsatRepo;
  inboxes: InboxesRepo;
  labels: LabelsRepo;
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  contacts: ContactsRepo;
  access: ConversationAccess;
  messagesService: MessagesService;
  clock: Clock;
}

export interface CsatListQuery {
  since?: unknown;
  until?: unknown;
  page?: unknown;
}

export interface CsatResponseView {
  row: CsatResponseListRow;
  contact: ContactRow | null;
  agent: MemberRef | null;
}

interface CsatConfig {
  message?: unknown;
  display_type?: unknown;
  survey_rules?: { operator?: unknown; values?: unknown };
}

/** Chatwoot's survey_rules: send only when the conversation has (`contains`) or lacks (`does_not_contain`) one of the labels. */
export function surveyRulesAllow(config: CsatConfig, labels: readonly string[]): boolean {
  const values = Array.isArray(config.survey_rules?.values)
    ? config.survey_rules.values.filter((v): v is string => typeof v === "string")
    : [];
  if (values.length === 0) return true;
  const operator = config.survey_rules?.operator ?? "contains";
  if (operator === "contains") return values.some((v) => labels.includes(v));
  if (operator === "does_not_contain") return !values.some((v) => labels.includes(v));
  return true;
}

export class CsatService {
  constructor(private readonly d: CsatDeps) {}

  /** Steps of the resolving transaction (src/db/reads.ts); the conversation as it is afterwards. */
  *afterResolvedSteps(row: ConversationRow): Reads<ConversationRow> {
    const inbox = yield* this.d.inboxes.readById(row.account_id, row.inbox_id);
    if (inbox?.csat_survey_enabled !== 1 || (yield* this.d.csat.readSurveySent(row.id))) return row;
    const config = JSON.parse(inbox.csat_config) as CsatConfig;
    if (!surveyRulesAllow(config, yield* this.d.labels.readTitles("conversation", row.id))) return row;
    const account = (yield* this.d.conversationRefs.readAccountRef(row.account_id))!;
    const content =
      typeof config.message === "string" && config.message.trim() !== "" ? config.message : DEFAULT_CSAT_MESSAGE;
    const displayType = (CSAT_DISPLAY_TYPES as readonly unknown[]).includes(config.display_type)
      ? config.display_type
      : "emoji";
    const input = { content, content_type: "input_csat", content_attributes: { display_type: displayType } };
    return (yield* this.d.messagesService.createInTxSteps(actingAsSystem(account), row, input, "template", [])).view
      .row;
  }

  /** Keeps (or changes) the contact's answer to a survey message: steps of the caller's body. */
  *recordAnswerSteps(conversation: ConversationRow, survey: MessageRow, answer: CsatAnswer): Reads<void> {
    // The assignee when the contact answers (Chatwoot's response builder).
    const current = (yield* this.d.conversations.readById(conversation.id)) ?? conversation;
    yield* this.d.csat.upsertSteps(
      {
        account_id: current.account_id,
        inbox_id: current.inbox_id,
        conversation_id: current.id,
        message_id: survey.id,
        contact_id: current.contact_id,
        assigned_agent_id: current.assignee_id,
        rating: answer.rating,
        feedback_message: answer.feedback_message,
      },
      unixSeconds(this.d.clock),
    );
  }

  /**
   * Administrators see every answer of the account, agents those of their inboxes; newest first, 25
   * a page. Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite.
   */
  list(a: Acting, q: CsatListQuery): CsatResponseView[] | Promise<CsatResponseView[]> {
    const since = unixParam("since", q.since);
    const until = unixParam("until", q.until);
    const page = pageNumber(q.page);
    return readSoon(this.readPage(a, since, until, page));
  }

  private *readPage(a: Acting, since: number | null, until: number | null, page: number): Reads<CsatResponseView[]> {
    const inboxIds = yield* nested(this.d.access.readVisibleInboxes(a));
    const rows = yield* nested(
      this.d.csat.readPage(
        { accountId: a.account.id, inboxIds, since, until },
        CSAT_PER_PAGE,
        (page - 1) * CSAT_PER_PAGE,
      ),
    );
    const contacts = yield* nested(this.d.contacts.readByIds(rows.map((r) => r.contact_id)));
    const agents = yield* nested(
      this.d.conversationRefs.readMembers(
        a.account.id,
        rows.flatMap((r) => (r.assigned_agent_id === null ? [] : [r.assigned_agent_id])),
      ),
    );
    return rows.map((row) => ({
      row,
      contact: contacts.get(row.contact_id) ?? null,
      agent: row.assigned_agent_id === null ? null : (agents.get(row.assigned_agent_id) ?? null),
    }));
  }
}

function unixParam(field: string, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,12}$/.test(s)) throw ValidationError.of(field, "must be a Unix timestamp in seconds", "invalid");
  return Number(s);
}
