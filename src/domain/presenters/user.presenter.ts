// Wire shapes of users: the profile, the agent record (spec's Agent table) and push data.
import type { AccountRow } from "../../db/accounts.repo.ts";
import type { MembershipRow, UserAccountRow, UserRow } from "../../db/users.repo.ts";

/** Derived presence: with auto_offline the status follows connected sessions, otherwise the chosen availability. */
export function availabilityStatus(m: Pick<MembershipRow, "availability" | "auto_offline">, online = false): string {
  if (m.auto_offline === 1 && !online) return "offline";
  return m.availability;
}

export function thumbnail(_user: UserRow): string {
  return "";
}

export function profileOf(user: UserRow, accounts: UserAccountRow[], token: string | null) {
  const first = accounts[0];
  return {
    id: user.id,
    access_token: token,
    account_id: first?.account_id ?? null,
    available_name: user.display_name ?? user.name,
    avatar_url: thumbnail(user),
    confirmed: user.confirmed === 1,
    display_name: user.display_name,
    message_signature: null,
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
      active_at: null,
      role: a.role,
      permissions: a.role === "administrator" ? ["administrator"] : ["agent"],
      availability: a.availability,
      availability_status: availabilityStatus(a),
      auto_offline: a.auto_offline === 1,
    })),
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
