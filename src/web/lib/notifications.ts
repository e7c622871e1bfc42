// The signed-in user's notifications in the current account: the newest page, the unread count
// (also in the tab's title), and what arrives live. A new one can also play a short sound and show
// a desktop notification; both are off until the user turns them on (kept in this browser), and the
// desktop one asks the browser's permission on that click, never by itself.
import { signal } from "@preact/signals";
import { api } from "./api.ts";
import { unreadNotifications } from "./title.ts";

export interface AppNotification {
  id: number;
  notification_type: string;
  push_message_title: string;
  primary_actor: { id: number };
  read_at: number | null;
  created_at: number;
}

interface NotificationPage {
  data: { meta: { unread_count: number; count: number }; payload: AppNotification[] };
}

export const notifications = signal<{ accountId: number; items: AppNotification[] } | null>(null);
export const alerts = signal({
  sound: localStorage.getItem("parley-notify-sound") === "1",
  desktop: localStorage.getItem("parley-notify-desktop") === "1",
});

const base = (accountId: number) => `/api/v1/accounts/${accountId}/notifications`;

export async function loadNotifications(accountId: number): Promise<void> {
  const r = await api<NotificationPage>("GET", base(accountId));
  notifications.value = { accountId, items: r.data.payload };
  unreadNotifications.value = r.data.meta.unread_count;
}

function replace(n: AppNotification): void {
  const s = notifications.value;
  if (s) notifications.value = { ...s, items: s.items.map((x) => (x.id === n.id ? n : x)) };
}

export async function markRead(accountId: number, n: AppNotification): Promise<void> {
  if (n.read_at !== null) return;
  replace(await api<AppNotification>("PATCH", `${base(accountId)}/${n.id}`));
  unreadNotifications.value = Math.max(0, unreadNotifications.value - 1);
}

export async function markAllRead(accountId: number): Promise<void> {
  await api("POST", `${base(accountId)}/read_all`, {});
  await loadNotifications(accountId);
}

/** notification.created from the socket: on top of the list (the server keeps one per conversation and type). */
export function received(accountId: number, data: Record<string, unknown>): void {
  const n = data.notification as AppNotification;
  const s = notifications.value;
  if (s?.accountId === accountId) {
    const others = s.items.filter(
      (x) => !(x.primary_actor.id === n.primary_actor.id && x.notification_type === n.notification_type),
    );
    notifications.value = { accountId, items: [n, ...others] };
  }
  if (typeof data.unread_count === "number") unreadNotifications.value = data.unread_count;
  alert(n);
}

let audio: AudioContext | null = null;

/** A short two-note chime, made here: no sound file to fetch. */
function chime(): void {
  audio ??= new AudioContext();
  const now = audio.currentTime;
  for (const [i, hz] of [880, 1320].entries()) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.15, now + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.12 + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.12);
    osc.stop(now + i * 0.12 + 0.25);
  }
}

function alert(n: AppNotification): void {
  if (alerts.value.sound) chime();
  if (
    alerts.value.desktop &&
    document.visibilityState !== "visible" &&
    "Notification" in window &&
    Notification.permission === "granted"
  ) {
    new Notification("Parley", { body: n.push_message_title, tag: `parley-${n.id}` });
  }
}

export async function setAlert(kind: "sound" | "desktop", on: boolean): Promise<void> {
  if (kind === "desktop" && on && "Notification" in window && Notification.permission !== "granted") {
    on = (await Notification.requestPermission()) === "granted";
  }
  localStorage.setItem(`parley-notify-${kind}`, on ? "1" : "0");
  alerts.value = { ...alerts.value, [kind]: on };
}
