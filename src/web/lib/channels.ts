// Chatwoot's channel type names as people say them.
import { type Key, t } from "./i18n.ts";

const LABELS: Record<string, Key> = {
  "Channel::Api": "channel.api",
  "Channel::WebWidget": "channel.website",
  "Channel::Email": "channel.email",
  "Channel::Sms": "channel.sms",
};

export function channelLabel(type: string): string {
  const key = LABELS[type];
  return key ? t(key) : type.replace(/^Channel::/, "");
}
