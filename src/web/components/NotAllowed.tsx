import { paths } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { Link } from "./Link.tsx";
import { Page } from "./Page.tsx";

export function NotAllowed({ account }: { account: AccountMembership }) {
  return (
    <Page title="Not allowed">
      <p>Only administrators of {account.name} can open its settings.</p>
      <p>
        <Link href={paths.dashboard(account.id)}>Back to conversations</Link>
      </p>
    </Page>
  );
}
