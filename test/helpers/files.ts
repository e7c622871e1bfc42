// Real files for attachment tests, built byte by byte to their formats' rules (a PNG with its
// chunks and CRCs, a PDF with its cross-reference table, an MP3 with an ID3 tag and MPEG frames),
// and a way to send them as multipart/form-data through the app, as the SDKs do.
import { deflateSync } from "node:zlib";
import type { Harness } from "./harness.ts";

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(Bun.hash.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A width × height RGB PNG, a gradient so identical sizes still differ by `seed`. */
export function pngFile(width: number, height: number, seed = 0): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      raw.set([(x * 7 + seed) & 255, (y * 11) & 255, seed & 255], y * (width * 3 + 1) + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())]),
  );
}

/** A one-page PDF that says `text`. */
export function pdfFile(text = "Invoice 42"): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 12 Tf 20 50 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 50 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** An MP3: an ID3v2 tag, then `frames` silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz). */
export function mp3File(frames = 40): Uint8Array {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return new Uint8Array(Buffer.concat([id3, ...Array.from({ length: frames }, () => frame)]));
}

export interface Part {
  name: string;
  value: string | { bytes: Uint8Array; filename: string; type?: string };
}

/** POSTs multipart/form-data through the app (Bun writes the body and boundary, as fetch does). */
export async function postMultipart(
  h: Harness,
  path: string,
  parts: Part[],
  token?: string,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const p of parts) {
    if (typeof p.value === "string") form.append(p.name, p.value);
    else
      form.append(
        p.name,
        new File([new Uint8Array(p.value.bytes)], p.value.filename, {
          type: p.value.type ?? "application/octet-stream",
        }),
      );
  }
  const res = await h.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: form,
      headers: { ...(token ? { api_access_token: token } : {}), ...headers },
    }),
  );
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** GETs an attachment's data_url through the app (its path and query; the host is the public URL's). */
export async function download(h: Harness, dataUrl: string, headers: Record<string, string> = {}) {
  const u = new URL(dataUrl);
  const res = await h.app.handle(new Request(`http://localhost${u.pathname}${u.search}`, { headers }));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
