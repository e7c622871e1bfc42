// Markdown-lite for agents' messages: **bold**, *italic* / _italic_, `code`, [links](https://…),
// bare http(s) links, line breaks. It builds Preact nodes from text, never HTML, so every string
// stays escaped; links open in a new tab without a referrer or an opener.
import { Fragment, type ComponentChildren } from "preact";

const INLINE =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\n]+\*|_[^_\n]+_)|(\[[^\]\n]+\]\(https?:\/\/[^\s)]+\))|(https?:\/\/[^\s<]+[^\s<.,;:!?)\]'"])/g;

function link(href: string, text: ComponentChildren, key: number) {
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {text}
    </a>
  );
}

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [all, code, bold, italic, md, bare] = m;
    if (code) out.push(<code key={key++}>{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={key++}>{bold.slice(2, -2)}</strong>);
    else if (italic) out.push(<em key={key++}>{italic.slice(1, -1)}</em>);
    else if (md) {
      const split = md.indexOf("](");
      out.push(link(md.slice(split + 2, -1), md.slice(1, split), key++));
    } else if (bare) out.push(link(bare, bare, key++));
    last = m.index + all.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text }: { text: string }) {
  const lines = text.split("\n");
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {inline(line)}
        </Fragment>
      ))}
    </>
  );
}
