// Inboxes, teams and their members inserted with plain SQL, so conversation tests do not depend
// on the directory's routes (built separately).
import type { ChannelType } from "../../src/domain/channels.ts";
import type { Harness } from "./harness.ts";

const now = (h: Harness) => Math.floor(h.clock.nowMs() / 1000);

export function makeInbox(
  h: Harness,
  accountId: number,
  opts: { name?: string; channel?: ChannelType; lock?: boolean; webhook_url?: string | null } = {},
): number {
  const r = h.deps.db
    .query(
      `INSERT INTO inboxes (account_id, name, channel_type, identifier, lock_to_single_conversation, webhook_url, created_at, updated_at)
       VALUES ($account_id, $name, $channel, $identifier, $lock, $webhook_url, $now, $now)`,
    )
    .run({
      account_id: accountId,
      name: opts.name ?? "Support",
      channel: opts.channel ?? "api",
      identifier: crypto.randomUUID(),
      lock: opts.lock ? 1 : 0,
      webhook_url: opts.webhook_url ?? null,
      now: now(h),
    });
  return Number(r.lastInsertRowid);
}

export function addInboxMember(h: Harness, inboxId: number, userId: number): void {
  h.deps.db
    .query("INSERT INTO inbox_members (inbox_id, user_id, created_at) VALUES ($inbox_id, $user_id, $now)")
    .run({ inbox_id: inboxId, user_id: userId, now: now(h) });
}

export function makeTeam(h: Harness, accountId: number, name = "billing"): number {
  const r = h.deps.db
    .query("INSERT INTO teams (account_id, name, created_at, updated_at) VALUES ($account_id, $name, $now, $now)")
    .run({ account_id: accountId, name, now: now(h) });
  return Number(r.lastInsertRowid);
}

export function addTeamMember(h: Harness, teamId: number, userId: number): void {
  h.deps.db
    .query("INSERT INTO team_members (team_id, user_id, created_at) VALUES ($team_id, $user_id, $now)")
    .run({ team_id: teamId, user_id: userId, now: now(h) });
}
