// A website inbox's embed code: Chatwoot's snippet with this server as BASE_URL, ready to copy,
// and the identity-verification secret a site's backend signs identifiers with.
import { useSignal } from "@preact/signals";
import type { Inbox } from "../../lib/types.ts";
import { Secret } from "./Secret.tsx";
import { t } from "../../lib/i18n.ts";

export function widgetSnippet(base: string, websiteToken: string): string {
  // Joined lines, not a template literal: the minifier keeps a literal's indentation as it is.
  return [
    "<script>",
    "  (function(d,t) {",
    `    var BASE_URL="${base}";`,
    "    var g=d.createElement(t),s=d.getElementsByTagName(t)[0];",
    '    g.src=BASE_URL+"/packs/js/sdk.js";',
    "    g.defer = true;",
    "    g.async = true;",
    "    s.parentNode.insertBefore(g,s);",
    "    g.onload=function(){",
    "      window.chatwootSDK.run({",
    `        websiteToken: '${websiteToken}',`,
    "        baseUrl: BASE_URL",
    "      })",
    "    }",
    '  })(document,"script");',
    "</script>",
  ].join("\n");
}

export function WidgetSnippet({ inbox }: { inbox: Inbox }) {
  const copied = useSignal("");
  const code = widgetSnippet(location.origin, inbox.website_token ?? "");
  const copy = () => {
    navigator.clipboard.writeText(code).then(
      () => (copied.value = t("snippet.copied")),
      () => (copied.value = t("snippet.refused")),
    );
  };
  return (
    <section class="settings-card" aria-labelledby="widget-snippet-title">
      <h2 id="widget-snippet-title">{t("snippet.title")}</h2>
      <p class="hint">{t("snippet.hint", { site: inbox.website_url ?? t("snippet.your_site") })}</p>
      <textarea
        class="snippet"
        readOnly
        rows={16}
        spellcheck={false}
        aria-label={t("snippet.label")}
        value={code}
        onFocus={(e) => e.currentTarget.select()}
      />
      <p>
        <button type="button" onClick={copy}>
          {t("snippet.copy")}
        </button>{" "}
        <span role="status">{copied.value}</span>
      </p>
      {inbox.hmac_token && (
        <dl class="facts">
          <dt>{t("snippet.hmac")}</dt>
          <dd>
            <Secret value={inbox.hmac_token} label={t("snippet.hmac_label")} />
            <p class="hint">{t("snippet.hmac_hint")}</p>
          </dd>
        </dl>
      )}
    </section>
  );
}
