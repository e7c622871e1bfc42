// A website inbox's embed code: Chatwoot's snippet with this server as BASE_URL, ready to copy,
// and the identity-verification secret a site's backend signs identifiers with.
import { useSignal } from "@preact/signals";
import type { Inbox } from "../../lib/types.ts";
import { Secret } from "./Secret.tsx";

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
      () => (copied.value = "Copied."),
      () => (copied.value = "Copying was refused: select the code and copy it."),
    );
  };
  return (
    <section class="settings-card" aria-labelledby="widget-snippet-title">
      <h2 id="widget-snippet-title">Embed code</h2>
      <p class="hint">
        Paste it before &lt;/body&gt; on every page of {inbox.website_url ?? "your site"} where the chat bubble should
        appear.
      </p>
      <textarea
        class="snippet"
        readOnly
        rows={16}
        spellcheck={false}
        aria-label="Embed code for this inbox"
        value={code}
        onFocus={(e) => e.currentTarget.select()}
      />
      <p>
        <button type="button" onClick={copy}>
          Copy embed code
        </button>{" "}
        <span role="status">{copied.value}</span>
      </p>
      {inbox.hmac_token && (
        <dl class="facts">
          <dt>Identity verification secret</dt>
          <dd>
            <Secret value={inbox.hmac_token} label="identity verification secret" />
            <p class="hint">
              Your server signs a signed-in user's identifier with it (hex HMAC-SHA256) and passes it to
              $chatwoot.setUser as identifier_hash.
            </p>
          </dd>
        </dl>
      )}
    </section>
  );
}
