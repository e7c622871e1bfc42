// The inbox channel types the inboxes table stores (the domain's names and rules: src/domain/channels.ts).
export const CHANNEL_TYPES = ["api", "web_widget", "email", "phone"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
