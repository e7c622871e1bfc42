// The frame of one record's page in settings: the way back to the section's list, what loading
// says (or the error), then the record's cards.
import type { ComponentChildren } from "preact";
import { paths } from "../../lib/routes.ts";
import type { Resource } from "../../lib/use-resource.ts";
import { Link } from "../Link.tsx";
import { LoadState } from "../LoadState.tsx";

interface Props {
  accountId: number;
  section: string;
  /** "← All inboxes" */
  back: string;
  resource: Resource<unknown>;
  children: ComponentChildren;
}

export function DetailPage({ accountId, section, back, resource, children }: Props) {
  return (
    <div class="settings-stack">
      <p>
        <Link href={paths.settings(accountId, section)}>← {back}</Link>
      </p>
      <LoadState resource={resource} />
      {children}
    </div>
  );
}
