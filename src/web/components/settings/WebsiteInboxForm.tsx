// A new website inbox: a name and the site's URL. Its page then shows the embed code and the
// chat's settings.
import { t } from "../../lib/i18n.ts";
import { NewChannelInboxForm } from "./NewChannelInboxForm.tsx";

export function WebsiteInboxForm({ accountId }: { accountId: number }) {
  return (
    <NewChannelInboxForm
      accountId={accountId}
      c={{
        type: "web_widget",
        field: "website_url",
        idPrefix: "website-inbox-",
        title: t("inboxes.website_title"),
        hint: t("inboxes.website_hint"),
        nameLabel: t("inboxes.site_name"),
        fieldLabel: t("inboxes.website_url"),
        fieldType: "text",
        fieldMax: 2048,
        create: t("inboxes.create_website"),
      }}
    />
  );
}
