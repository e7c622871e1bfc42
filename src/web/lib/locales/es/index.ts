// Spanish: the same keys as the English table (src/web/lib/locales/en/).
import type { Key } from "../en/index.ts";
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

export const es: Record<Key, string> = mergeAreas(
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
);
