// What is known of a contact: the fields that have a value, and their custom attributes. Shown
// beside a conversation (ContactPanel) and on the contact's own page.
import { attributeText } from "../../lib/custom-attributes.ts";
import { dateTime, longAge } from "../../lib/format.ts";
import type { Contact } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

function Detail({ term, value }: { term: string; value: unknown }) {
  if (value === null || value === undefined || value === "") return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>{String(value)}</dd>
    </>
  );
}

export function ContactDetails({ contact: c }: { contact: Contact }) {
  const attrs = c.additional_attributes;
  const location = [attrs.city, attrs.country].filter((x) => typeof x === "string" && x).join(", ");
  return (
    <>
      <dl class="contact-details">
        <Detail term={t("contact.email")} value={c.email} />
        <Detail term={t("contact.phone")} value={c.phone_number} />
        <Detail term={t("contact.identifier")} value={c.identifier} />
        <Detail term={t("contact.company")} value={attrs.company_name} />
        <Detail term={t("contact.location")} value={location} />
        <Detail
          term={t("contact.inboxes")}
          value={[...new Set(c.contact_inboxes?.map((ci) => ci.inbox.name))].join(", ")}
        />
        <Detail term={t("contact.last_active")} value={c.last_activity_at ? longAge(c.last_activity_at) : null} />
        <Detail term={t("contact.created")} value={dateTime(c.created_at)} />
        {c.blocked && <Detail term={t("contact.blocked")} value={t("contact.blocked_value")} />}
      </dl>
      {Object.keys(c.custom_attributes).length > 0 && (
        <dl class="contact-details" aria-label={t("contact.custom_attributes")}>
          {Object.entries(c.custom_attributes).map(([key, value]) => (
            <Detail key={key} term={key} value={attributeText(value)} />
          ))}
        </dl>
      )}
    </>
  );
}
