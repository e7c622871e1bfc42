import { Link } from "./Link.tsx";
import { Page } from "./Page.tsx";
import { t } from "../lib/i18n.ts";

export function NotFound({ message = t("notfound.text") }: { message?: string }) {
  return (
    <Page title={t("notfound.title")}>
      <p>{message}</p>
      <p>
        <Link href="/app">{t("notfound.home")}</Link>
      </p>
    </Page>
  );
}
