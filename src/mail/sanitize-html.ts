// Makes a mail's HTML body safe to keep and show: an allow-list of formatting tags, links only to
// http(s) and mailto, no scripts, styles, forms, frames, images (remote images are read receipts
// the customer did not agree to) or event attributes. Built on Bun's HTMLRewriter (a streaming
// HTML parser), so malformed markup is parsed the way browsers parse it.

const KEEP = new Set([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "p",
  "br",
  "div",
  "span",
  "ul",
  "ol",
  "li",
  "blockquote",
  "pre",
  "code",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "td",
  "th",
  "hr",
  "small",
  "sub",
  "sup",
]);
/** Removed with everything inside them. */
const DROP = new Set([
  "script",
  "style",
  "head",
  "title",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "form",
  "input",
  "button",
  "select",
  "textarea",
  "svg",
  "math",
  "template",
  "noscript",
  "link",
  "meta",
  "base",
  "audio",
  "video",
  "canvas",
]);
const ATTRIBUTES: Record<string, readonly string[]> = {
  a: ["href", "title"],
  td: ["colspan", "rowspan"],
  th: ["colspan", "rowspan"],
};
const SAFE_HREF = /^(https?:|mailto:)/i;

export async function sanitizeHtml(html: string): Promise<string> {
  const rewriter = new HTMLRewriter()
    .onDocument({
      doctype() {},
      comments(c) {
        c.remove();
      },
    })
    .on("*", {
      element(el) {
        const tag = el.tagName.toLowerCase();
        if (DROP.has(tag)) return void el.remove();
        if (!KEEP.has(tag)) return void el.removeAndKeepContent();
        const allowed = ATTRIBUTES[tag] ?? [];
        for (const [name, value] of [...el.attributes]) {
          const keep =
            allowed.includes(name.toLowerCase()) && (name.toLowerCase() !== "href" || SAFE_HREF.test(value.trim()));
          if (!keep) el.removeAttribute(name);
        }
        if (tag === "a") el.setAttribute("rel", "noopener noreferrer nofollow");
      },
    });
  return (await rewriter.transform(new Response(html)).text()).trim();
}
