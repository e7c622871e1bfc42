// A new email inbox: a name and the support address. The new inbox's page then asks for the
// mailbox's IMAP and SMTP servers (EmailServerSettings), where "Test connection" checks them.
import { t } from "../../lib/i18n.ts";
import { NewChannelInboxForm } from "./NewChannelInboxForm.tsx";

export function EmailInboxForm({ accountId }: { accountId: number }) {
  return (
    <NewChannelInboxForm
      accountId={accountId}
      c={{
        type: "email",
        field: "email",
        idPrefix: "email-inbox-",
        title: t("mail.new_title"),
        hint: t("mail.new_hint"),
        nameLabel: t("mail.inbox_name"),
        fieldLabel: t("mail.address"),
        fieldType: "email",
        fieldMax: 254,
        create: t("mail.create"),
      }}
    />
  );
}
