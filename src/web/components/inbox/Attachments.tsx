// A message's attachments as links (type, name, size). Images from this server show a thumbnail;
// others are links only, since the page loads nothing from other origins.
import { fileSize } from "../../lib/format.ts";
import type { Attachment } from "../../lib/types.ts";

function nameOf(a: Attachment): string {
  if (a.fallback_title) return a.fallback_title;
  const path = a.data_url?.split("?")[0] ?? "";
  const last = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  return last || `${a.file_type} attachment`;
}

export function Attachments({ items }: { items: Attachment[] }) {
  return (
    <ul class="attachments" aria-label="Attachments">
      {items.map((a) => {
        const sameOrigin = a.thumb_url?.startsWith("/") ?? false;
        const label = `${nameOf(a)} (${a.file_type}${a.file_size ? `, ${fileSize(a.file_size)}` : ""})`;
        return (
          <li key={a.id}>
            {a.data_url ? (
              <a href={a.data_url} target="_blank" rel="noopener noreferrer">
                {a.file_type === "image" && sameOrigin && <img src={a.thumb_url} alt="" />}
                {label}
              </a>
            ) : (
              <span>{label}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
