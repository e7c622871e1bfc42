// The summary reports (Chatwoot's endpoint and its siblings). One set of definitions for every
// screen, so figures agree between them:
//   conversations_count           conversations created in the range, by the conversation's
//                                 current team / assignee / inbox / labels
//   resolved_conversations_count  conversation_resolved events created in the range (a
//                                 conversation resolved twice counts twice)
//   avg_resolution_time           average of those events' values
//   avg_first_response_time       average of first_response events created in the range
//   avg_reply_time                average of reply_time events created in the range
// Events are grouped by the conversation's current team, the event's agent (resolution: the
// assignee then; first response: the replying agent; reply time: the assignee then), its inbox,
// or the conversation's current labels. Averages are null when there is no data; with
// business_hours they average value_in_business_hours, which is null for inboxes without
// working hours, so such inboxes add nothing (null, not 0).
import { VersionedCache } from "./versioned-cache.ts";
import {
  NO_EVENTS,
  type EventFigures,
  type GroupDimension,
  type Range,
  type ReportsRepo,
  type ValueColumn,
} from "../db/reports.repo.ts";
import { INCOMING, OUTGOING } from "../db/messages.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { ValidationError } from "./errors.ts";
import { businessHoursFlag, previousRange, reportRange, type ReportQuery } from "./report-params.ts";

export interface SummaryFigures {
  conversations_count: number;
  resolved_conversations_count: number;
  avg_resolution_time: number | null;
  avg_first_response_time: number | null;
  avg_reply_time: number | null;
}

export interface SummaryRow extends SummaryFigures {
  id: number;
}

export interface LabelSummaryRow extends SummaryFigures {
  name: string;
}

export interface OverviewFigures {
  conversations_count: number;
  incoming_messages_count: number;
  outgoing_messages_count: number;
  avg_first_response_time: number | null;
  avg_resolution_time: number | null;
  resolutions_count: number;
  reply_time: number | null;
}

export interface Overview extends OverviewFigures {
  previous: OverviewFigures;
}

export interface ReportsDeps {
  reports: ReportsRepo;
  clock: Clock;
  /** Changes whenever the database may have changed; without it nothing is cached. */
  readVersion?: () => string;
  /** The same, awaited where reading it in place would block (PostgreSQL). */
  readVersionSoon?: () => Promise<string>;
}

/** Summaries kept (the newest used): a dashboard asks a handful of ranges and groupings. */
const CACHED_SUMMARIES = 64;

export class ReportsService {
  private readonly cache: VersionedCache;

  constructor(private readonly d: ReportsDeps) {
    this.cache = new VersionedCache(d.readVersion, CACHED_SUMMARIES, d.readVersionSoon);
  }

  /**
   * A summary is a few aggregates over up to millions of rows (~9 ms of CPU on a million
   * conversations), and dashboards ask the same ones again and again: 32 at once queued to half a
   * second. The result is kept until the next commit of this server or any other connection
   * (readVersion), so a cached answer is always the one the database would give now.
   */
  private cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.cache.getAsync(key, compute);
  }

  /** One row per team, agent or inbox of the account, in id order, with or without data. */
  summary(p: AccountPrincipal, dim: GroupDimension, q: ReportQuery): Promise<SummaryRow[]> {
    const { range, col } = this.params(p, q);
    const account = p.account.id;
    return this.cached(`${dim}:${account}:${range.since}:${range.until}:${col}`, async () => {
      const [conversations, events, groups] = await Promise.all([
        this.d.reports.conversationCounts(account, dim, range),
        this.d.reports.eventFigures(account, dim, range, col),
        this.d.reports.groups(account, dim),
      ]);
      return groups.map((id) => ({ id, ...figures(conversations.get(id), events.get(id)) }));
    });
  }

  /** One row per label title used on the account's conversations, by title. */
  labels(p: AccountPrincipal, q: ReportQuery): Promise<LabelSummaryRow[]> {
    const { range, col } = this.params(p, q);
    const account = p.account.id;
    return this.cached(`label:${account}:${range.since}:${range.until}:${col}`, async () => {
      const [conversations, events, titles] = await Promise.all([
        this.d.reports.labelConversationCounts(account, range),
        this.d.reports.labelEventFigures(account, range, col),
        this.d.reports.labelTitles(account),
      ]);
      return titles.map((name) => ({ name, ...figures(conversations.get(name), events.get(name)) }));
    });
  }

  /** The account overview (Chatwoot's reports/summary) with the preceding period of equal length. */
  overview(p: AccountPrincipal, q: ReportQuery & { type?: unknown }): Promise<Overview> {
    if (q.type !== undefined && q.type !== "" && q.type !== "account") {
      throw ValidationError.of("type", "only the account overview (type=account) is available", "unsupported");
    }
    const { range, col } = this.params(p, q);
    const account = p.account.id;
    return this.cached(`overview:${account}:${range.since}:${range.until}:${col}`, async () => {
      const [current, previous] = await Promise.all([
        this.overviewOf(account, range, col),
        this.overviewOf(account, previousRange(range), col),
      ]);
      return { ...current, previous };
    });
  }

  private async overviewOf(account: number, range: Range, col: ValueColumn): Promise<OverviewFigures> {
    const reports = this.d.reports;
    const [eventFigures, conversations, incoming, outgoing] = await Promise.all([
      reports.eventFigures(account, "account", range, col),
      reports.conversationCounts(account, "account", range),
      reports.messageCount(account, INCOMING, range),
      reports.messageCount(account, OUTGOING, range),
    ]);
    const events = eventFigures.get(0) ?? NO_EVENTS;
    return {
      conversations_count: conversations.get(0) ?? 0,
      incoming_messages_count: incoming,
      outgoing_messages_count: outgoing,
      avg_first_response_time: events.first_response.average,
      avg_resolution_time: events.conversation_resolved.average,
      resolutions_count: events.conversation_resolved.n,
      reply_time: events.reply_time.average,
    };
  }

  private params(p: AccountPrincipal, q: ReportQuery): { range: Range; col: ValueColumn } {
    requireAdministrator(p);
    const range = reportRange(q, unixSeconds(this.d.clock));
    return { range, col: businessHoursFlag(q.business_hours) ? "value_in_business_hours" : "value" };
  }
}

function figures(conversations: number | undefined, e: EventFigures | undefined): SummaryFigures {
  const f = e ?? NO_EVENTS;
  return {
    conversations_count: conversations ?? 0,
    resolved_conversations_count: f.conversation_resolved.n,
    avg_resolution_time: f.conversation_resolved.average,
    avg_first_response_time: f.first_response.average,
    avg_reply_time: f.reply_time.average,
  };
}
