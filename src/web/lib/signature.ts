// The agent's message signature under their replies: their choice to sign is kept in this browser
// (as the notification sound is), the signature itself on their profile. Notes are never signed.
import { signal } from "@preact/signals";

const KEY = "parley-sign-replies";

export const signing = signal(typeof localStorage !== "undefined" && localStorage.getItem(KEY) === "1");

export function setSigning(on: boolean): void {
  signing.value = on;
  localStorage.setItem(KEY, on ? "1" : "0");
}

/** The reply as sent: the text, a blank line and the signature, when signing and there is both. */
export function signed(content: string, signature: string | null | undefined, on: boolean): string {
  return on && signature && content !== "" ? `${content}\n\n${signature}` : content;
}
