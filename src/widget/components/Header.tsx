// The chat's header: the inbox's name or welcome title and tagline, how fast it replies, and
// outside business hours the away notice with the next opening time in the visitor's language.
import type { ChannelConfig } from "../lib/api.ts";
import { fill, type Strings } from "../lib/i18n.ts";

function nextOpening(at: number, locale: string | null): string {
  const d = new Date(at * 1000);
  const opts: Intl.DateTimeFormatOptions = { weekday: "long", hour: "numeric", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat((locale ?? "en").replace("_", "-"), opts).format(d);
  } catch {
    return new Intl.DateTimeFormat("en", opts).format(d);
  }
}

export function Header({
  config,
  t,
  locale,
  framed,
  onClose,
}: {
  config: ChannelConfig;
  t: Strings;
  locale: string | null;
  framed: boolean;
  onClose: () => void;
}) {
  const reply = (t as unknown as Record<string, string>)[config.reply_time] ?? t.in_a_few_minutes;
  return (
    <header class="head">
      <div class="head-text">
        <h1>{config.welcome_title || config.website_name}</h1>
        {config.welcome_tagline && <p class="tagline">{config.welcome_tagline}</p>}
        {config.available ? (
          <p class="status">
            <span class="dot" aria-hidden="true" /> {reply}
          </p>
        ) : (
          <p class="away" role="status">
            {config.out_of_office_message || t.away}
            {config.next_open_at !== null && ` ${fill(t.back_at, { time: nextOpening(config.next_open_at, locale) })}`}
          </p>
        )}
      </div>
      {framed && (
        <button type="button" class="icon" aria-label={t.close} onClick={onClose}>
          ×
        </button>
      )}
    </header>
  );
}
