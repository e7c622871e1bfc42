import { Link } from "./Link.tsx";
import { Page } from "./Page.tsx";

export function NotFound({ message = "There is no page at this address." }: { message?: string }) {
  return (
    <Page title="Page not found">
      <p>{message}</p>
      <p>
        <Link href="/app">Go to your conversations</Link>
      </p>
    </Page>
  );
}
