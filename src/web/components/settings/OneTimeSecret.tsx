// A signing secret the server shows only now: on screen, selectable, with a plain warning. It takes
// focus so that screen-reader users hear it at once.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../lib/i18n.ts";

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
        <strong>{title}.</strong> {t("secret.once")}
      </p>
      <code class="identifier">{secret}</code>
      <p class="hint">{t("secret.once_hint")}</p>
      {children && <p>{children}</p>}
    </div>
  );
}
