// Settings › Inboxes: the account's inboxes, and a form for a new API inbox. A path with an inbox's
// id shows that inbox instead.
import { api } from "../../lib/api.ts";
import { channelLabel } from "../../lib/channels.ts";
import { paths } from "../../lib/routes.ts";
import type { Inbox } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { Link } from "../Link.tsx";
import type { SectionProps } from "../Settings.tsx";
import { InboxDetail } from "./InboxDetail.tsx";
import { InboxForm } from "./InboxForm.tsx";
import { WebsiteInboxForm } from "./WebsiteInboxForm.tsx";
import { EmailInboxForm } from "./EmailInboxForm.tsx";
import { LoadState } from "../LoadState.tsx";
import { DataTable } from "../DataTable.tsx";
import { t } from "../../lib/i18n.ts";

export function InboxesSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <InboxDetail accountId={accountId} inboxId={itemId} />;
  return <InboxList accountId={accountId} />;
}

function InboxList({ accountId }: { accountId: number }) {
  const inboxes = useResource(
    () => api<{ payload: Inbox[] }>("GET", `/api/v1/accounts/${accountId}/inboxes`).then((r) => r.payload),
    [accountId],
    t("inboxes.what"),
  );
  const list = inboxes.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="inboxes-title">
        <h2 id="inboxes-title">{t("inboxes.title")}</h2>
        <LoadState resource={inboxes} />
        {list && list.length === 0 && <p>{t("inboxes.none")}</p>}
        {list && list.length > 0 && (
          <DataTable columns={[t("inboxes.col.name"), t("inboxes.col.channel"), t("inboxes.col.identifier")]}>
            {list.map((i) => (
              <tr key={i.id}>
                <td>
                  <Link href={paths.settings(accountId, "inboxes", i.id)}>{i.name}</Link>
                </td>
                <td>{channelLabel(i.channel_type)}</td>
                <td>{i.inbox_identifier ? <code>{i.inbox_identifier}</code> : "—"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <InboxForm accountId={accountId} />
      <WebsiteInboxForm accountId={accountId} />
      <EmailInboxForm accountId={accountId} />
    </div>
  );
}
