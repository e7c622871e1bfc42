// Inbox channel types: stored as our short names, shown with Chatwoot's class names, because
// clients switch on `channel_type` strings like "Channel::Api".

import { CHANNEL_TYPES, type ChannelType } from "../db/channel-types.ts";

export { CHANNEL_TYPES, type ChannelType };

const WIRE: Record<ChannelType, string> = {
  api: "Channel::Api",
  web_widget: "Channel::WebWidget",
  email: "Channel::Email",
  // Chatwoot's generic SMS channel; the spec's "Phone" inbox type.
  phone: "Channel::Sms",
};

export function channelTypeName(type: ChannelType): string {
  return WIRE[type];
}

/** Accepts our short names and Chatwoot's class names (e.g. "Channel::Api" or "api"). */
export function parseChannelType(value: unknown): ChannelType | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if ((CHANNEL_TYPES as readonly string[]).includes(v)) return v as ChannelType;
  const found = (Object.entries(WIRE) as [ChannelType, string][]).find(
    ([, name]) => name.toLowerCase() === v.toLowerCase(),
  );
  return found ? found[0] : null;
}
