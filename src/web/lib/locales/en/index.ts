// The English table, the source of truth: every key the screens use, by area.
import { common } from "./common.ts";
import { terms } from "./terms.ts";
import { widget } from "./widget.ts";
import { reports } from "./reports.ts";
import { automation } from "./automation.ts";
import { webhooks } from "./webhooks.ts";
import { teams } from "./teams.ts";
import { agents } from "./agents.ts";
import { inboxes } from "./inboxes.ts";
import { contacts } from "./contacts.ts";
import { details } from "./details.ts";
import { inbox } from "./inbox.ts";
import { settings } from "./settings.ts";
import { mail } from "./mail.ts";
import { errors } from "./errors.ts";
import { apps } from "./apps.ts";
import { macros } from "./macros.ts";
import { mergeAreas } from "../merge.ts";

/** Each area on its own, so that a test can check that no key is defined in two of them. */
export const areas = [
  common,
  terms,
  widget,
  reports,
  automation,
  webhooks,
  teams,
  agents,
  inboxes,
  inbox,
  details,
  contacts,
  settings,
  mail,
  errors,
  apps,
  macros,
] as const;

export const en = mergeAreas(...areas);

export type Key = keyof typeof en;
/** Another language's part of the table for one area: the same keys as English's. */
export type Area<T> = Record<keyof T, string>;
