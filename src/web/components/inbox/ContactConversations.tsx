// A contact's conversations (the server's newest 20), each a link to it: beside an open
// conversation the others, on the contact's page all of them.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { inboxName } from "../../lib/directory.ts";
import { longAge } from "../../lib/format.ts";
import { paths } from "../../lib/routes.ts";
import { describeError } from "../../lib/thread.ts";
import type { Conversation } from "../../lib/types.ts";
import { Link } from "../Link.tsx";
import { t } from "../../lib/i18n.ts";

export function ContactConversations({
  accountId,
  contactId,
  currentId,
}: {
  accountId: number;
  contactId: number;
  currentId: number | null;
}) {
  const items = useSignal<Conversation[] | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    items.value = null;
    api<{ payload: Conversation[] }>("GET", `/api/v1/accounts/${accountId}/contacts/${contactId}/conversations`).then(
      (r) => (items.value = r.payload),
      (e) => (error.value = describeError(e, t("contact.conversations_failed"))),
    );
  }, [accountId, contactId]);

  const others = items.value?.filter((c) => c.id !== currentId) ?? [];
  return (
    <div class="contact-conversations">
      <h4 id="other-conversations-title">
        {currentId === null ? t("contact.conversations") : t("contact.other_conversations")}
      </h4>
      {error.value && <p role="alert">{error.value}</p>}
      {items.value && others.length === 0 && <p class="hint">{t("contact.none")}</p>}
      {others.length > 0 && (
        <ul aria-labelledby="other-conversations-title">
          {others.map((c) => (
            <li key={c.id}>
              <Link href={paths.conversation(accountId, c.id)}>
                #{c.id} · {inboxName(c.inbox_id)}
              </Link>
              <span class="hint">
                {" "}
                {t(`status.${c.status}`)}, {longAge(c.last_activity_at)}
              </span>
              {c.last_non_activity_message?.content && (
                <span class="other-excerpt">{c.last_non_activity_message.content}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
