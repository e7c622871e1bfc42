// Separates what the sender wrote from the history their mail program quoted under it, so the
// thread shows the new text and keeps the rest (shown collapsed). The usual markers: "On … wrote:"
// (also split over two lines, and its Portuguese/Spanish/German/French forms), Outlook's
// "-----Original Message-----" or a "From: … Sent: …" block, and a trailing run of "> " lines.

export interface SplitText {
  reply: string;
  quoted: string | null;
}

const ATTRIBUTION = /^(on\b.+\bwrote:|em\b.+\bescreveu:|el\b.+\bescribió:|am\b.+\bschrieb.*:|le\b.+\ba écrit\s?:)\s*$/i;
const OUTLOOK = /^(-{2,}\s*(original message|mensagem original|mensaje original)\s*-{2,}|_{10,})\s*$/i;
const HEADER_BLOCK = /^(from|de|von):\s.+/i;

export function splitQuoted(text: string): SplitText {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let cut = -1;
  for (let i = 0; i < lines.length && cut < 0; i++) {
    const line = lines[i]!.trim();
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]!.trim()}` : line;
    if (ATTRIBUTION.test(line) || OUTLOOK.test(line)) cut = i;
    else if (/^on\b/i.test(line) && ATTRIBUTION.test(joined)) cut = i;
    else if (HEADER_BLOCK.test(line) && /^(sent|enviado|gesendet|date):/i.test(lines[i + 1]?.trim() ?? "")) cut = i;
  }
  if (cut < 0) {
    // No marker: a trailing block of "> " lines (with blank lines between) is the quote.
    let i = lines.length;
    while (i > 0 && (lines[i - 1]!.startsWith(">") || lines[i - 1]!.trim() === "")) i--;
    if (i < lines.length && lines.slice(i).some((l) => l.startsWith(">"))) cut = i;
  }
  if (cut <= 0) return { reply: text.trim(), quoted: null };
  const reply = lines.slice(0, cut).join("\n").trim();
  const quoted = lines.slice(cut).join("\n").trim();
  return reply === "" ? { reply: text.trim(), quoted: null } : { reply, quoted: quoted || null };
}
