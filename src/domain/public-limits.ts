// The public (client) API has no authentication, so its limits are what keeps it from being a way
// to flood the helpdesk: every request counts against the client's address, messages and new
// conversations against the contact, new contacts against the address. Token buckets in memory
// (one process serves everything); a refused request counts nothing and says when to come back.
// The per-conversation flood guard (messages.service.ts) and the body and content size limits
// apply on top.
import type { PublicLimitsConfig } from "../config.ts";
import type { Clock } from "../lib/clock.ts";
import { TokenBuckets } from "../lib/token-bucket.ts";
import { RateLimitedError } from "./errors.ts";
import { addressKey } from "./sign-in-throttle.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export class PublicLimits {
  private readonly requests: TokenBuckets;
  private readonly messages: TokenBuckets;
  private readonly conversations: TokenBuckets;
  private readonly contacts: TokenBuckets;

  constructor(config: PublicLimitsConfig, clock: Clock) {
    this.requests = new TokenBuckets(config.requestsPerMinute, MINUTE, clock);
    this.messages = new TokenBuckets(config.messagesPerMinute, MINUTE, clock);
    this.conversations = new TokenBuckets(config.conversationsPerHour, HOUR, clock);
    this.contacts = new TokenBuckets(config.contactsPerHour, HOUR, clock);
  }

  /** Any public request from this address (IPv6 addresses count per /64). */
  request(ip: string | null): void {
    check(this.requests.take(addressKey(ip)), "client_address", "Too many requests from this address");
  }

  message(contactId: number): void {
    check(this.messages.take(String(contactId)), "contact", "Too many messages from this contact");
  }

  conversation(contactId: number): void {
    check(this.conversations.take(String(contactId)), "contact", "Too many new conversations from this contact");
  }

  contactCreation(ip: string | null): void {
    check(this.contacts.take(addressKey(ip)), "client_address", "Too many new contacts from this address");
  }
}

function check(waitSeconds: number, field: string, message: string): void {
  if (waitSeconds > 0) throw new RateLimitedError(waitSeconds, field, message);
}
