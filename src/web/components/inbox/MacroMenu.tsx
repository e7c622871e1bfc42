// The Macros menu beside a conversation's status actions: the macros this member may run (global
// ones first), each asking once more before it runs, since a macro may send the customer a message.
// The run is done when the server answers (all or nothing), so the thread is reloaded at once; a
// refusal (an action that cannot be done) shows in the screen's alert. The list loads once per
// visit of the account's inbox, so a macro added in Settings shows when the agent comes back.
import { announce } from "../../lib/announce.ts";
import { api } from "../../lib/api.ts";
import { t } from "../../lib/i18n.ts";
import { type Macro, menuOrder } from "../../lib/macros.ts";
import { paths } from "../../lib/routes.ts";
import { describeError, reloadThread } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { Disclosure } from "../Disclosure.tsx";
import { Link } from "../Link.tsx";

interface Props {
  accountId: number;
  conversationId: number;
  onError(message: string | null): void;
}

export function MacroMenu({ accountId, conversationId, onError }: Props) {
  const base = `/api/v1/accounts/${accountId}/macros`;
  const macros = useResource(
    () => api<{ payload: Macro[] }>("GET", base).then((r) => menuOrder(r.payload)),
    [accountId],
    t("macros.what"),
  );
  const run = async (m: Macro) => {
    onError(null);
    try {
      await api("POST", `${base}/${m.id}/execute`, { conversation_ids: [conversationId] });
      announce(t("macros.ran", { name: m.name }));
      await reloadThread();
    } catch (e) {
      onError(describeError(e, t("macros.run_failed")));
    }
  };
  const list = macros.data.value;
  return (
    <Disclosure id="macro-menu" class="status-menu macro-menu" label={t("macros.menu_label")} button={t("macros.menu")}>
      {macros.error.value && <p role="alert">{macros.error.value}</p>}
      {list && list.length === 0 && <p>{t("macros.menu_none")}</p>}
      {list && list.length > 0 && (
        <ul class="menu-list">
          {list.map((m) => (
            <li key={m.id}>
              <ConfirmButton
                label={m.name}
                question={t("macros.run_question", { name: m.name })}
                confirmLabel={t("macros.run")}
                onConfirm={() => run(m)}
              />
            </li>
          ))}
        </ul>
      )}
      <Link href={paths.settings(accountId, "macros")}>{t("macros.manage")}</Link>
    </Disclosure>
  );
}
