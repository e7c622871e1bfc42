// Completions typed into a text box: "@" picks an agent to mention, "/" at the start of a line a
// canned response. Pure rules over the text and the caret, so they are tested without a browser.

export interface Active {
  /** Where the trigger character stands. */
  start: number;
  /** What was typed after it, up to the caret. */
  query: string;
}

/**
 * The completion being typed at the caret: the trigger at the start of the text or after a space
 * (or, with `lineStart`, at the start of a line only), then no space up to the caret.
 */
export function activeQuery(text: string, caret: number, trigger: string, lineStart = false): Active | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf(trigger);
  if (at < 0) return null;
  const prev = at === 0 ? "" : before[at - 1]!;
  if (lineStart ? prev !== "" && prev !== "\n" : prev !== "" && !/\s/.test(prev)) return null;
  const query = before.slice(at + trigger.length);
  return /\s/.test(query) ? null : { start: at, query };
}

/** The text with the completion replaced by `insert`, and where the caret goes (after it). */
export function applyChoice(
  text: string,
  active: Active,
  caret: number,
  insert: string,
): { text: string; caret: number } {
  const next = text.slice(0, active.start) + insert + text.slice(caret);
  return { text: next, caret: active.start + insert.length };
}

/** Items whose name has a word starting with the query (any case), in their order, at most `limit`. */
export function matching<T>(items: readonly T[], name: (item: T) => string, query: string, limit = 8): T[] {
  const q = query.toLowerCase();
  return items
    .filter(
      (i) =>
        name(i)
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(q)) || name(i).toLowerCase().startsWith(q),
    )
    .slice(0, limit);
}

/**
 * A note's text with each chosen `@Name` turned into Chatwoot's mention link; longer names first, so
 * "@Ann Lee" is not taken for "@Ann".
 */
export function encodeMentions(text: string, chosen: ReadonlyMap<string, string>): string {
  if (chosen.size === 0) return text;
  const names = [...chosen.keys()]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  // One pass, so a link already made is not searched again; "@Ann" does not take "@Annabel".
  return text.replace(
    new RegExp(`@(${names.join("|")})(?![\\p{L}\\p{N}])`, "gu"),
    (_, name: string) => chosen.get(name)!,
  );
}
