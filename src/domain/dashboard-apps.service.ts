// Chatwoot's dashboard apps: pages an administrator embeds in the conversation screen, each told
// which conversation is open (the web app posts it Chatwoot's appContext message). Every member lists
// and reads them; administrators create, change and delete them (Chatwoot's DashboardAppPolicy).
import type { DashboardAppFields, DashboardAppRow, DashboardAppsRepo } from "../db/dashboard-apps.repo.ts";
import { DASHBOARD_APPS_MAX } from "../db/dashboard-apps.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { FieldErrors, ValidationError } from "./errors.ts";
import { readRecordAt } from "./path-record.ts";
import { requiredString } from "./validate.ts";

/** A frame per app is what Chatwoot's dashboard shows; a few are allowed, as its schema allows a list. */
const MAX_FRAMES = 10;
const URL_MAX = 2048;

export interface DashboardAppInput {
  title?: unknown;
  content?: unknown;
  show_on_sidebar?: unknown;
}

interface Deps {
  dashboardApps: DashboardAppsRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export class DashboardAppsService {
  constructor(private readonly d: Deps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal): DashboardAppRow[] | Promise<DashboardAppRow[]> {
    return readSoon(this.d.dashboardApps.readList(p.account.id));
  }

  /** The app the path names, or its 404: awaited on PostgreSQL for the read-only route. */
  showSoon(p: AccountPrincipal, rawId: unknown): DashboardAppRow | Promise<DashboardAppRow> {
    return readSoon(this.readExisting(p, rawId));
  }

  async create(p: AccountPrincipal, input: DashboardAppInput): Promise<DashboardAppRow> {
    requireAdministrator(p);
    const fields = fieldsOf(input, null);
    const { dashboardApps, clock } = this.d;
    return await this.d.writeTx.steps(function* () {
      if ((yield* dashboardApps.readCount(p.account.id)) >= DASHBOARD_APPS_MAX)
        throw ValidationError.of(
          "title",
          `an account may have at most ${DASHBOARD_APPS_MAX} dashboard apps`,
          "invalid",
        );
      const id = yield* dashboardApps.insertSteps(p.account.id, p.user.id, fields, unixSeconds(clock));
      return (yield* dashboardApps.readById(p.account.id, id))!;
    });
  }

  async update(p: AccountPrincipal, rawId: unknown, input: DashboardAppInput): Promise<DashboardAppRow> {
    requireAdministrator(p);
    const { dashboardApps, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(p, rawId);
      yield* dashboardApps.updateSteps(current.id, fieldsOf(input, current), unixSeconds(clock));
      return (yield* dashboardApps.readById(p.account.id, current.id))!;
    });
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    const { dashboardApps } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* dashboardApps.deleteSteps((yield* self.readExisting(p, rawId)).id);
    });
  }

  /** The app the path names, or its 404, as a step of a read or a write. */
  private readExisting(p: AccountPrincipal, rawId: unknown): Reads<DashboardAppRow> {
    const { dashboardApps } = this.d;
    return readRecordAt("Dashboard app", rawId, (id) => dashboardApps.readById(p.account.id, id));
  }
}

/** The fields to store: what is given, checked, over what is there (on create, title and content are required). */
function fieldsOf(input: DashboardAppInput, current: DashboardAppRow | null): DashboardAppFields {
  const errors = new FieldErrors();
  const title = input.title === undefined && current ? current.title : requiredString(errors, "title", input.title);
  const content = input.content === undefined && current ? current.content : contentOf(errors, input.content);
  let showOnSidebar = current?.show_on_sidebar ?? 0;
  if (input.show_on_sidebar !== undefined) {
    if (typeof input.show_on_sidebar !== "boolean") errors.add("show_on_sidebar", "must be true or false", "invalid");
    else showOnSidebar = input.show_on_sidebar ? 1 : 0;
  }
  errors.throwIfAny();
  return { title: title!, content: content!, show_on_sidebar: showOnSidebar };
}

/** Chatwoot's content schema: a non-empty list of {type: "frame", url} with an http(s) URL. */
function contentOf(errors: FieldErrors, raw: unknown): string | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.add("content", 'must be a list of frames: [{"type": "frame", "url": "https://…"}]', "required");
    return undefined;
  }
  if (raw.length > MAX_FRAMES) {
    errors.add("content", `may hold at most ${MAX_FRAMES} frames`, "too_long");
    return undefined;
  }
  const frames: { type: "frame"; url: string }[] = [];
  for (const [i, item] of raw.entries()) {
    const frame = item as { type?: unknown; url?: unknown } | null;
    if (typeof frame !== "object" || frame === null || frame.type !== "frame")
      errors.add(`content[${i}].type`, 'must be "frame"', "invalid");
    else if (!isHttpUrl(frame.url))
      errors.add(`content[${i}].url`, `must be an http(s) URL of at most ${URL_MAX} characters`, "invalid");
    else frames.push({ type: "frame", url: frame.url });
  }
  return JSON.stringify(frames);
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== "string" || v.length > URL_MAX) return false;
  try {
    const url = new URL(v);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
