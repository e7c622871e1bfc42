// A secret the server shows only now (a webhook's signing secret, a new API token): on screen,
// selectable, with a plain warning. It takes focus so that screen-reader users hear it at once.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../lib/i18n.ts";

export function OneTimeSecret({
  secret,
  title,
  warning = t("secret.once"),
  hint = t("secret.once_hint"),
  children,
}: {
  secret: string;
  title: string;
  /** What to do now; a signing secret's words unless told. */
  warning?: string;
  hint?: string;
  children?: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [secret]);
  return (
    <div class="one-time-secret" ref={box} tabIndex={-1} role="region" aria-label={title}>
      <p>
        <strong>{title}.</strong> {warning}
      </p>
      <code class="identifier">{secret}</code>
      <p class="hint">{hint}</p>
      {children && <p>{children}</p>}
    </div>
  );
}
