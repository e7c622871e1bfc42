// The page's side of the loader's postMessage channel. The page says "loaded" to its parent (no
// data), the loader answers "init" with the visitor's token and settings; from then on the page
// talks only to that window at that origin, and takes commands only from it.

export interface Command {
  type: string;
  data: Record<string, any>;
}

const framed = window.parent !== window;
let parentOrigin: string | null = null;

export const isFramed = () => framed;

export function listen(onCommand: (c: Command) => void): void {
  window.addEventListener("message", (e) => {
    if (!framed || e.source !== window.parent) return;
    const m = e.data as { parley?: number; type?: unknown; data?: unknown };
    if (m?.parley !== 1 || typeof m.type !== "string") return;
    if (m.type === "init") parentOrigin ??= e.origin;
    if (e.origin !== parentOrigin) return;
    onCommand({ type: m.type, data: (m.data ?? {}) as Record<string, any> });
  });
  if (framed) window.parent.postMessage({ parley: 1, type: "loaded" }, "*");
}

/** To the loader (only once it has introduced itself). */
export function tell(type: string, data: Record<string, unknown> = {}): void {
  if (framed && parentOrigin) window.parent.postMessage({ parley: 1, type, data }, parentOrigin);
}
