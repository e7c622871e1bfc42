// Sending a message with files: multipart attachments[] through XMLHttpRequest, the one browser
// API that reports upload progress (fetch does not), with the same CSRF header and error shape
// as every other call.
import { ApiError, apiError, csrfHeaders } from "./api.ts";
import { t } from "./i18n.ts";

export function uploadForm(fields: Record<string, string>, files: readonly File[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append("attachments[]", f, f.name);
  return form;
}

/** POSTs the form; `progress` gets 0…1 as the bytes leave. Resolves with the JSON answer. */
export function upload<T>(path: string, form: FormData, progress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    for (const [k, v] of Object.entries(csrfHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && progress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, t("app.unreachable")));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(apiError(xhr.status, xhr.statusText, data as { description?: string } | null));
    };
    xhr.send(form);
  });
}

/** A link to one of this server's files as a path, so it loads from the page's own origin. */
export function sameOriginFileUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, location.href);
    return u.pathname.startsWith("/files/") ? `${u.pathname}${u.search}` : null;
  } catch {
    return null;
  }
}
