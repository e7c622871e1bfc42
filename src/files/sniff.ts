// What a file is, from its first bytes first and its name second: a name says "photo.png" as
// easily as it says anything, so the bytes decide whenever they are recognisable. The answer also
// decides how the file is served back (src/http/files.routes.ts), so a file that could run as a
// page in a browser (HTML, SVG, XML) is always reported as such, whatever its name claims.

export interface Sniffed {
  /** The MIME type stored and served. */
  mime: string;
  /** The extension shown in the record (Chatwoot's `extension`), lower case, without the dot; null if none. */
  extension: string | null;
}

type Signature = { mime: string; ext: string; test: (b: Uint8Array) => boolean };

const at = (b: Uint8Array, offset: number, bytes: readonly number[]) => bytes.every((x, i) => b[offset + i] === x);
const ascii = (b: Uint8Array, offset: number, text: string) =>
  at(
    b,
    offset,
    [...text].map((c) => c.charCodeAt(0)),
  );

const SIGNATURES: readonly Signature[] = [
  { mime: "image/png", ext: "png", test: (b) => at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: "image/jpeg", ext: "jpg", test: (b) => at(b, 0, [0xff, 0xd8, 0xff]) },
  { mime: "image/gif", ext: "gif", test: (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a") },
  { mime: "image/webp", ext: "webp", test: (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP") },
  { mime: "image/bmp", ext: "bmp", test: (b) => ascii(b, 0, "BM") && b.length > 26 && b[14]! >= 12 && b[15] === 0 },
  { mime: "application/pdf", ext: "pdf", test: (b) => ascii(b, 0, "%PDF-") },
  { mime: "audio/mpeg", ext: "mp3", test: (b) => ascii(b, 0, "ID3") || (b[0] === 0xff && (b[1]! & 0xe6) === 0xe2) },
  { mime: "audio/wav", ext: "wav", test: (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WAVE") },
  { mime: "audio/ogg", ext: "ogg", test: (b) => ascii(b, 0, "OggS") },
  { mime: "audio/flac", ext: "flac", test: (b) => ascii(b, 0, "fLaC") },
  { mime: "audio/aac", ext: "aac", test: (b) => b[0] === 0xff && (b[1]! & 0xf6) === 0xf0 },
  { mime: "video/webm", ext: "webm", test: (b) => at(b, 0, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: "video/mp4", ext: "mp4", test: (b) => ascii(b, 4, "ftyp") },
  { mime: "application/zip", ext: "zip", test: (b) => at(b, 0, [0x50, 0x4b, 0x03, 0x04]) },
  { mime: "application/gzip", ext: "gz", test: (b) => at(b, 0, [0x1f, 0x8b]) },
];

/** ftyp brands that are audio or QuickTime rather than MP4 video. */
const FTYP: Record<string, { mime: string; ext: string }> = {
  "M4A ": { mime: "audio/mp4", ext: "m4a" },
  "M4B ": { mime: "audio/mp4", ext: "m4a" },
  "qt  ": { mime: "video/quicktime", ext: "mov" },
  "3gp4": { mime: "video/3gpp", ext: "3gp" },
  "3gp5": { mime: "video/3gpp", ext: "3gp" },
};

/** Types known by extension when the bytes say nothing (text formats, office files inside zips). */
const BY_EXTENSION: Record<string, string> = {
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  md: "text/markdown",
  log: "text/plain",
  html: "text/html",
  htm: "text/html",
  svg: "image/svg+xml",
  xml: "application/xml",
  js: "text/javascript",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  rtf: "application/rtf",
  ics: "text/calendar",
  vcf: "text/vcard",
  opus: "audio/ogg",
  oga: "audio/ogg",
  m4a: "audio/mp4",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  mkv: "video/x-matroska",
  heic: "image/heic",
  tif: "image/tiff",
  tiff: "image/tiff",
};

/** Formats a browser would execute or render as a document from our origin: never served inline. */
export const ACTIVE_TYPES = new Set([
  "text/html",
  "image/svg+xml",
  "application/xml",
  "text/xml",
  "text/javascript",
  "application/xhtml+xml",
]);

export function extensionOf(filename: string): string | null {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(filename.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** Markup sniffing: a file whose text starts like a document is one, whatever its name. */
function looksLikeMarkup(b: Uint8Array): string | null {
  const text = new TextDecoder("utf-8", { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (/^<(!doctype html|html|head|body|script|iframe)\b/.test(text)) return "text/html";
  if (/^<svg\b/.test(text) || (text.startsWith("<?xml") && text.includes("<svg"))) return "image/svg+xml";
  if (text.startsWith("<?xml")) return "application/xml";
  return null;
}

export function sniff(head: Uint8Array, filename: string): Sniffed {
  const named = extensionOf(filename);
  for (const s of SIGNATURES) {
    if (!s.test(head)) continue;
    if (s.ext === "mp4") {
      const brand = new TextDecoder().decode(head.subarray(8, 12));
      const other = FTYP[brand];
      if (other) return { mime: other.mime, extension: other.ext };
    }
    // Office documents are zips: keep the name's more precise type when it names one.
    if (s.ext === "zip" && named && BY_EXTENSION[named]?.startsWith("application/vnd."))
      return { mime: BY_EXTENSION[named]!, extension: named };
    return { mime: s.mime, extension: s.ext === "jpg" && named === "jpeg" ? "jpeg" : s.ext };
  }
  const markup = looksLikeMarkup(head);
  if (markup) return { mime: markup, extension: named };
  const byName = named ? BY_EXTENSION[named] : undefined;
  // A name that claims a binary image or media type the bytes did not confirm is not trusted.
  if (byName && !/^(image|audio|video)\//.test(byName)) return { mime: byName, extension: named };
  if (byName && ["heic", "tif", "tiff", "mov", "avi", "mkv", "opus", "oga", "m4a"].includes(named!))
    return { mime: byName, extension: named };
  return { mime: "application/octet-stream", extension: named };
}

/** Chatwoot's file_type for a stored MIME type. */
export function fileTypeOf(mime: string): "image" | "audio" | "video" | "file" {
  if (mime.startsWith("image/") && !ACTIVE_TYPES.has(mime)) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "file";
}
