// A screen's heading and title. After an in-app navigation the heading takes focus, so keyboard
// and screen-reader users land on the new content instead of staying on the link they used.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { currentPath, navigated } from "../lib/router.ts";
import { screenTitle } from "../lib/title.ts";

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const path = currentPath.value;
  useEffect(() => {
    screenTitle.value = `${title} · Parley`;
    if (navigated.peek()) heading.current?.focus();
  }, [title, path]);
  return (
    <div class="page">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}
