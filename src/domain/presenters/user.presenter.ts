// Wire shapes of users: the profile, the agent record (spec's Agent table) and push data.
import type { AccountRow } from "../../db/accounts.repo.ts";
import type { MembershipRow, UserAccountRow, UserRow } from "../../db/users.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";

/** Derived presence: with auto_offline the status follows connected sessions, otherwise the chosen availability. */
export function availabilityStatus(m: Pick<MembershipRow, "availability" | "auto_offline">, online = false): string {
  if (m.auto_offline === 1 && !online) return "offline";
  return m.availability;
}

export function thumbnail(_user: UserRow): string {
  return "";
}

/** The account the user last made active (PUT profile/set_active_account), else their first. */
export function activeMembership<M extends { active_at: number | null }>(memberships: readonly M[]): M | undefined {
  return memberships.reduce<M | undefined>(
    (best, a) => (best === undefined || (a.active_at ?? -1) > (best.active_at ?? -1) ? a : best),
    undefined,
  );
}

/** `online(accountId)`: whether the user has a realtime subscription open in that account (presence). */
export function profileOf(
  user: UserRow,
  accounts: UserAccountRow[],
  token: string | null,
  online: (accountId: number) => boolean = () => false,
) {
  const first = activeMembership(accounts);
  return {
    id: user.id,
    access_token: token,
    account_id: first?.account_id ?? null,
    available_name: user.display_name ?? user.name,
    avatar_url: thumbnail(user),
    confirmed: user.confirmed === 1,
    display_name: user.display_name,
    message_signature: user.message_signature ?? null,
    email: user.email,
    name: user.name,
    provider: "email",
    pubsub_token: user.pubsub_token,
    role: first?.role ?? null,
    ui_settings: {},
    uid: user.email,
    type: "user",
    accounts: accounts.map((a) => ({
      id: a.account_id,
      name: a.account_name,
      status: a.account_status,
      active_at: isoFromSeconds(a.active_at),
      role: a.role,
      permissions: a.role === "administrator" ? ["administrator"] : ["agent"],
      availability: a.availability,
      availability_status: availabilityStatus(a, online(a.account_id)),
      auto_offline: a.auto_offline === 1,
    })),
  };
}

/** The spec's Agent record: a user as a member of one account (Chatwoot's agent partial). */
export function agentOf(user: UserRow, m: MembershipRow, online = false) {
  return {
    id: user.id,
    account_id: m.account_id,
    availability_status: availabilityStatus(m, online),
    auto_offline: m.auto_offline === 1,
    confirmed: user.confirmed === 1,
    email: user.email,
    provider: "email",
    available_name: user.display_name ?? user.name,
    name: user.name,
    role: m.role,
    thumbnail: thumbnail(user),
    custom_role_id: null as number | null,
  };
}

/** A user as the sender or assignee in push data (websocket/webhook/message payloads). */
export function userPushData(
  user: UserRow,
  m: Pick<MembershipRow, "availability" | "auto_offline"> | null,
  online = false,
) {
  return {
    id: user.id,
    name: user.name,
    available_name: user.display_name ?? user.name,
    avatar_url: thumbnail(user),
    type: "user" as const,
    availability_status: m ? availabilityStatus(m, online) : "offline",
    thumbnail: thumbnail(user),
  };
}

export function accountOf(a: AccountRow) {
  return {
    id: a.id,
    name: a.name,
    locale: a.locale,
    status: a.status,
    custom_attributes: JSON.parse(a.custom_attributes) as Record<string, unknown>,
    created_at: a.created_at,
  };
}
