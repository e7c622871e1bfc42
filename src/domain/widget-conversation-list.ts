// The website chat's list of a visitor's conversations (GET /api/v1/widget/conversations/list):
// newest activity first, 20 a page as Chatwoot's, each with the agents' messages the visitor has not
// seen and the last message the visitor may see. One Reads: in place on SQLite, awaited on
// PostgreSQL's read pool, where each conversation's reads go out at once.
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { PublicRepo } from "../db/public.repo.ts";
import { all, nested, type Reads } from "../db/reads.ts";
import type { WidgetRepo } from "../db/widget.repo.ts";
import { ValidationError } from "./errors.ts";
import type { PublicScope } from "./public-contacts.service.ts";
import type { PublicMessages, PublicMessagesService } from "./public-messages.service.ts";

/** Chatwoot's widget conversation list: 20 a page. */
export const WIDGET_LIST_PAGE = 20;

export interface ListedConversation {
  row: ConversationRow;
  unread: number;
  last: PublicMessages | null;
}

export interface ListedPage {
  items: ListedConversation[];
  hasNextPage: boolean;
}

export interface VisitorListDeps {
  widgetRepo: WidgetRepo;
  publicRepo: PublicRepo;
  publicMessages: PublicMessagesService;
}

/** One page of the visitor identity's conversations (422 for a page that is not a positive whole number). */
export function* readVisitorList(d: VisitorListDeps, scope: PublicScope, rawPage: unknown): Reads<ListedPage> {
  const page = rawPage === undefined || rawPage === "" ? 1 : Number(rawPage);
  if (!Number.isSafeInteger(page) || page < 1)
    throw ValidationError.of("page", "must be a positive whole number", "invalid");
  const offset = (page - 1) * WIDGET_LIST_PAGE;
  // One more than a page: whether a next page exists.
  const rows = yield* nested(d.widgetRepo.readConversationsPage(scope.contactInbox.id, WIDGET_LIST_PAGE + 1, offset));
  const items = yield* all(...rows.slice(0, WIDGET_LIST_PAGE).map((row) => readListed(d, row)));
  return { items, hasNextPage: rows.length > WIDGET_LIST_PAGE };
}

function* readListed(d: VisitorListDeps, row: ConversationRow): Reads<ListedConversation> {
  const [last, unread] = yield* all(
    d.publicRepo.readVisible(row.id, null, 1),
    d.widgetRepo.readUnreadCount(row.id, row.contact_last_seen_at ?? 0),
  );
  if (last.length === 0) return { row, unread, last: null };
  const senders = yield* nested(d.publicMessages.readSenders(row.account_id, last));
  return { row, unread, last: { messages: last, senders } };
}
