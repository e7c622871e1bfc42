// What the inbox's keyboard shortcuts do (the keys themselves are in lib/shortcuts.ts).
import type { Signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { announce } from "../../lib/announce.ts";
import { list } from "../../lib/conversation-list.ts";
import { neighbour } from "../../lib/list-merge.ts";
import { focusReply } from "../../lib/reply.ts";
import { currentPath, navigate } from "../../lib/router.ts";
import { parseRoute, paths } from "../../lib/routes.ts";
import { shortcutOf } from "../../lib/shortcuts.ts";
import { describeError, thread } from "../../lib/thread.ts";
import { setStatus } from "./StatusActions.tsx";
import { t } from "../../lib/i18n.ts";

/** The open conversation as of now: the path changes at once, the screen only on the next frame. */
function openId(): number | null {
  const route = parseRoute(currentPath.peek());
  return route.name === "conversations" ? route.conversationId : null;
}

/** Moves to the conversation before or after the open one, keeping focus on its row in the list. */
function step(accountId: number, by: 1 | -1): void {
  const next = neighbour(list.value.items, openId(), by);
  if (!next) {
    announce(by === 1 ? t("keys.last") : t("keys.first"));
    return;
  }
  navigate(paths.conversation(accountId, next.id));
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-conversation-id="${next.id}"]`)?.focus());
}

async function toggleResolved(): Promise<void> {
  const c = thread.value?.conversation;
  if (!c) return;
  const reopen = c.status === "resolved";
  try {
    await setStatus(reopen ? "open" : "resolved");
    announce(reopen ? t("keys.reopened") : t("keys.resolved"));
  } catch (e) {
    announce(describeError(e, t("actions.status_failed")));
  }
}

export function useInboxShortcuts(accountId: number, helpOpen: Signal<boolean>): void {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (helpOpen.value || e.defaultPrevented) return;
      const action = shortcutOf(e);
      if (!action) return;
      const needsConversation = action === "reply" || action === "note" || action === "resolve";
      // Only on the conversation the path names: never on the one shown a moment before a move.
      if (needsConversation && (!thread.value?.conversation || thread.value.conversation.id !== openId())) return;
      e.preventDefault(); // r and p must not also type into the box they focus
      if (action === "next" || action === "previous") step(accountId, action === "next" ? 1 : -1);
      else if (action === "reply" || action === "note") focusReply(action);
      else if (action === "resolve") void toggleResolved();
      else helpOpen.value = true;
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [accountId]);
}
