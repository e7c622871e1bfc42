// The little markdown people type into chat (Chatwoot renders agents' messages the same way):
// **bold**, *italic* or _italic_, `code`, ``` code blocks ```, [links](https://…), bare https
// links, and lines starting with "- " or "1. " as lists. Parsed into a tree of plain values, never
// HTML: the renderer builds elements from it, so no text can become markup. Links keep only http,
// https and mailto addresses. No imports: shared by the agents' app and the website widget.

export type Inline =
  | { t: "text"; text: string }
  | { t: "strong"; children: Inline[] }
  | { t: "em"; children: Inline[] }
  | { t: "code"; text: string }
  | { t: "link"; href: string; children: Inline[] };

export type Block = { t: "p"; lines: Inline[][] } | { t: "ul" | "ol"; items: Inline[][] } | { t: "pre"; text: string };

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
// One pattern for every inline form, tried left to right; the first that matches at a place wins.
const INLINE =
  /`([^`\n]+)`|\*\*([^*\n]+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)|(?<![\w*])\*([^*\n]+?)\*(?![\w*])|(?<![\w_])_([^_\n]+?)_(?![\w_])|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const push = (node: Inline) => {
    const prev = out[out.length - 1];
    if (node.t === "text" && prev?.t === "text") prev.text += node.text;
    else out.push(node);
  };
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) push({ t: "text", text: text.slice(last, m.index) });
    const [whole, code, strong, linkText, href, em1, em2, bare] = m;
    if (code !== undefined) push({ t: "code", text: code });
    else if (strong !== undefined) push({ t: "strong", children: parseInline(strong) });
    else if (linkText !== undefined) {
      push(
        SAFE_HREF.test(href!)
          ? { t: "link", href: href!, children: parseInline(linkText) }
          : { t: "text", text: whole },
      );
    } else if (em1 !== undefined || em2 !== undefined) push({ t: "em", children: parseInline((em1 ?? em2)!) });
    else push({ t: "link", href: bare!, children: [{ t: "text", text: bare! }] });
    last = m.index + whole.length;
  }
  if (last < text.length) push({ t: "text", text: text.slice(last) });
  return out;
}

const BULLET = /^\s*[-*] (.*)$/;
const NUMBERED = /^\s*\d+[.)] (.*)$/;

export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim().startsWith("```")) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith("```"); i++) body.push(lines[i]!);
      blocks.push({ t: "pre", text: body.join("\n") });
      continue;
    }
    const kind = BULLET.test(line) ? "ul" : NUMBERED.test(line) ? "ol" : null;
    const prev = blocks[blocks.length - 1];
    if (kind) {
      const item = parseInline(line.replace(kind === "ul" ? BULLET : NUMBERED, "$1"));
      if (prev?.t === kind) prev.items.push(item);
      else blocks.push({ t: kind, items: [item] });
    } else if (line.trim() === "") {
      if (prev?.t === "p") blocks.push({ t: "p", lines: [] }); // a blank line ends the paragraph
    } else if (prev?.t === "p") prev.lines.push(parseInline(line));
    else blocks.push({ t: "p", lines: [parseInline(line)] });
  }
  return blocks.filter((b) => b.t !== "p" || b.lines.length > 0);
}
