// A message's attachments: images as thumbnails, audio and video with the browser's players,
// other files as chips with their type and size. Files of this server load from the page's own
// origin (their links carry a signature, no token); others stay plain links, since the page loads
// nothing from other origins.
import { fileSize } from "../../lib/format.ts";
import type { Attachment } from "../../lib/types.ts";
import { sameOriginFileUrl } from "../../lib/upload.ts";
import { t } from "../../lib/i18n.ts";

function nameOf(a: Attachment): string {
  if (a.fallback_title) return a.fallback_title;
  const path = a.data_url?.split("?")[0] ?? "";
  const last = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  return last || `${a.file_type} attachment`;
}

function Preview({ a, url }: { a: Attachment; url: string }) {
  if (a.file_type === "image") return <img src={sameOriginFileUrl(a.thumb_url) ?? url} alt="" loading="lazy" />;
  if (a.file_type === "audio") return <audio controls preload="metadata" src={url} />;
  if (a.file_type === "video") return <video controls preload="metadata" src={url} />;
  return null;
}

export function Attachments({ items }: { items: Attachment[] }) {
  return (
    <ul class="attachments" aria-label={t("files.attachments")}>
      {items.map((a) => {
        const own = sameOriginFileUrl(a.data_url);
        const label = `${nameOf(a)} (${a.file_type}${a.file_size ? `, ${fileSize(a.file_size)}` : ""})`;
        return (
          <li key={a.id} class={`attachment ${a.file_type}`}>
            {own && <Preview a={a} url={own} />}
            {a.data_url ? (
              <a href={own ?? a.data_url} target="_blank" rel="noopener noreferrer" class="file-chip">
                {label}
              </a>
            ) : (
              <span class="file-chip">{label}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
