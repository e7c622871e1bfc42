// A message's text with its chat markdown (src/shared/markdown-lite.ts) as elements. Every string
// goes in as text, so nothing a customer writes can become markup; links open in a new tab without
// handing it this page (noopener).
import type { ComponentChildren } from "preact";
import { parseBlocks, type Inline } from "../../../shared/markdown-lite.ts";

function inline(nodes: Inline[]): ComponentChildren {
  return nodes.map((n, i) => {
    if (n.t === "text") return n.text;
    if (n.t === "code") return <code key={i}>{n.text}</code>;
    if (n.t === "strong") return <strong key={i}>{inline(n.children)}</strong>;
    if (n.t === "em") return <em key={i}>{inline(n.children)}</em>;
    return (
      <a key={i} href={n.href} target="_blank" rel="noopener noreferrer nofollow">
        {inline(n.children)}
      </a>
    );
  });
}

export function RichText({ text, class: className }: { text: string; class?: string }) {
  return (
    <div class={className}>
      {parseBlocks(text).map((b, i) => {
        if (b.t === "pre") return <pre key={i}>{b.text}</pre>;
        if (b.t === "p") {
          return (
            <p key={i}>
              {b.lines.map((line, j) => (
                <>
                  {j > 0 && <br />}
                  {inline(line)}
                </>
              ))}
            </p>
          );
        }
        const List = b.t;
        return (
          <List key={i}>
            {b.items.map((item, j) => (
              <li key={j}>{inline(item)}</li>
            ))}
          </List>
        );
      })}
    </div>
  );
}
