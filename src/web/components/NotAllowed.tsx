import { paths } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { Link } from "./Link.tsx";
import { Page } from "./Page.tsx";
import { t } from "../lib/i18n.ts";

export function NotAllowed({ account }: { account: AccountMembership }) {
  return (
    <Page title={t("notallowed.title")}>
      <p>{t("notallowed.text", { account: account.name })}</p>
      <p>
        <Link href={paths.dashboard(account.id)}>{t("notallowed.back")}</Link>
      </p>
    </Page>
  );
}
