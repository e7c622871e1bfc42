// A settings table: its header row, and a box that scrolls sideways on a narrow screen instead of
// the page (the caption, when given, names it for screen readers).
import type { ComponentChildren } from "preact";
import { TableHead } from "./TableHead.tsx";

interface Props {
  columns: string[];
  /** A last column for row buttons. */
  actions?: boolean;
  caption?: string;
  children: ComponentChildren;
}

export function DataTable({ columns, actions, caption, children }: Props) {
  return (
    <div class="table-scroll">
      <table class="data-table">
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <TableHead columns={columns} actions={actions} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
