// Chatwoot's channel type names as people say them.
const LABELS: Record<string, string> = {
  "Channel::Api": "API",
  "Channel::WebWidget": "Website",
  "Channel::Email": "Email",
  "Channel::Sms": "SMS",
};

export function channelLabel(type: string): string {
  return LABELS[type] ?? type.replace(/^Channel::/, "");
}
