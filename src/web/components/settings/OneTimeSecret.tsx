// A signing secret the server shows only now: on screen, selectable, with a plain warning. It takes
// focus so that screen-reader users hear it at once.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function OneTimeSecret({
  secret,
  title,
  children,
}: {
  secret: string;
  title: string;
  children?: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [secret]);
  return (
    <div class="one-time-secret" ref={box} tabIndex={-1} role="region" aria-label={title}>
      <p>
        <strong>{title}.</strong> Copy its signing secret now: it is not shown again.
      </p>
      <code class="identifier">{secret}</code>
      <p class="hint">
        Receivers check the X-Chatwoot-Signature header (HMAC-SHA256 of the timestamp and body) with it.
      </p>
      {children && <p>{children}</p>}
    </div>
  );
}
