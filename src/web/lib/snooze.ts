// When a snoozed conversation comes back: the menu's choices, as Unix seconds (null = when the
// customer next writes, Chatwoot's snooze without snoozed_until). Pure (test/web/snooze.test.ts).
import { t } from "./i18n.ts";

export interface SnoozeChoice {
  label: string;
  until: number | null;
}

const at9 = (d: Date) => (d.setHours(9, 0, 0, 0), Math.floor(d.getTime() / 1000));

export function snoozeChoices(now: Date): SnoozeChoice[] {
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  const monday = new Date(now);
  monday.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7)); // the next Monday, a week on when today is Monday
  return [
    { label: t("snooze.reply"), until: null },
    { label: t("snooze.hour"), until: Math.floor(now.getTime() / 1000) + 3600 },
    { label: t("snooze.tomorrow"), until: at9(tomorrow) },
    { label: t("snooze.monday"), until: at9(monday) },
  ];
}
