// Previous / next page buttons under a list, with "Page 2 of 7" (or "Page 2" when the total is
// unknown). Shown only when there is more than one page.
import type { Signal } from "@preact/signals";
import { t } from "../lib/i18n.ts";

interface Props {
  page: Signal<number>;
  /** null: the total is not known; `more` says whether a next page exists. */
  pages: number | null;
  more?: boolean;
  label: string;
  back?: string;
  forward?: string;
}

export function Pager({
  page,
  pages,
  more = false,
  label,
  back = t("common.previous"),
  forward = t("common.next"),
}: Props) {
  const hasNext = pages === null ? more : page.value < pages;
  if (page.value <= 1 && !hasNext) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page.value <= 1} onClick={() => page.value--}>
        {back}
      </button>
      <span>
        {pages === null ? t("common.page", { page: page.value }) : t("common.page_of", { page: page.value, pages })}
      </span>
      <button type="button" disabled={!hasNext} onClick={() => page.value++}>
        {forward}
      </button>
    </nav>
  );
}
