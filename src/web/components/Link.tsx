// An in-app link: a real <a href> (open in a new tab, copy, middle-click all work), routed in the
// page on a plain click.
import type { ComponentChildren } from "preact";
import { navigate } from "../lib/router.ts";

interface Props {
  href: string;
  current?: boolean;
  class?: string;
  children: ComponentChildren;
  [data: `data-${string}`]: string | number | undefined;
}

export function Link({ href, current, class: className, children, ...data }: Props) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} class={className} aria-current={current ? "page" : undefined} onClick={onClick} {...data}>
      {children}
    </a>
  );
}
