// Wire shape of a label (Chatwoot's label partial; integer id per docs/compatibility.md #16).
import type { LabelRow } from "../../db/account-labels.repo.ts";

export function labelOf(row: LabelRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    color: row.color,
    show_on_sidebar: row.show_on_sidebar === 1,
  };
}
