// Width and height of an image from its header bytes, without an image library: enough of each
// format is read to find the size (PNG's IHDR, GIF's screen, JPEG's frame header, WebP's three
// chunk kinds, BMP's info header). Anything unrecognised or truncated answers null.

export interface Dimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const i32le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);

function valid(width: number, height: number): Dimensions | null {
  return width > 0 && height > 0 && width <= 1_000_000 && height <= 1_000_000 ? { width, height } : null;
}

function png(b: Uint8Array): Dimensions | null {
  if (b.length < 24) return null;
  return valid(u32be(b, 16), u32be(b, 20));
}

function gif(b: Uint8Array): Dimensions | null {
  return b.length < 10 ? null : valid(u16le(b, 6), u16le(b, 8));
}

/** Walks JPEG segments to the first start-of-frame marker (C0–CF except C4, C8, CC). */
function jpeg(b: Uint8Array): Dimensions | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return valid(u16be(b, i + 7), u16be(b, i + 5));
    }
    i += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): Dimensions | null {
  if (b.length < 30) return null;
  const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (chunk === "VP8 ") return valid(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === "VP8L") {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X") return valid(u24le(b, 24) + 1, u24le(b, 27) + 1);
  return null;
}

function bmp(b: Uint8Array): Dimensions | null {
  return b.length < 26 ? null : valid(Math.abs(i32le(b, 18)), Math.abs(i32le(b, 22)));
}

export function imageSize(mime: string, head: Uint8Array): Dimensions | null {
  switch (mime) {
    case "image/png":
      return png(head);
    case "image/gif":
      return gif(head);
    case "image/jpeg":
      return jpeg(head);
    case "image/webp":
      return webp(head);
    case "image/bmp":
      return bmp(head);
    default:
      return null;
  }
}
