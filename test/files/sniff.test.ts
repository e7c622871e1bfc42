// Types from first bytes, and image sizes from headers, for the formats clients send most.
import { describe, expect, test } from "bun:test";
import { imageSize } from "../../src/files/image-size.ts";
import { fileTypeOf, sniff } from "../../src/files/sniff.ts";
import { mp3File, pdfFile, pngFile } from "../helpers/files.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p)))));

/** A JPEG: SOI, an APP1 (EXIF) segment of `exif` bytes, then a baseline frame header. */
export function jpegOf(width: number, height: number, exif = 16): Uint8Array {
  const app1 = [0xff, 0xe1, ((exif + 2) >> 8) & 255, (exif + 2) & 255, ...new Array(exif).fill(0)];
  const sof = [
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return bytes([0xff, 0xd8], app1, sof, [0xff, 0xd9]);
}

describe("sniff", () => {
  test("the bytes decide, whatever the name", () => {
    expect(sniff(pngFile(2, 2), "photo.jpg")).toEqual({ mime: "image/png", extension: "png" });
    expect(sniff(jpegOf(10, 5), "x.jpeg")).toEqual({ mime: "image/jpeg", extension: "jpeg" });
    expect(sniff(bytes("GIF89a", [1, 0, 1, 0]), "a")).toEqual({ mime: "image/gif", extension: "gif" });
    expect(sniff(pdfFile(), "invoice")).toEqual({ mime: "application/pdf", extension: "pdf" });
    expect(sniff(mp3File(2), "voice.ogg")).toEqual({ mime: "audio/mpeg", extension: "mp3" });
    expect(sniff(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "), "a.wav").mime).toBe("audio/wav");
    expect(sniff(bytes([0, 0, 0, 24], "ftypisom", [0, 0, 0, 0]), "clip").mime).toBe("video/mp4");
    expect(sniff(bytes([0, 0, 0, 24], "ftypM4A ", [0, 0, 0, 0]), "clip")).toEqual({
      mime: "audio/mp4",
      extension: "m4a",
    });
    expect(sniff(bytes("OggS", [0, 2]), "voice").mime).toBe("audio/ogg");
  });

  test("markup is reported as markup, however it is named", () => {
    expect(sniff(bytes("\uFEFF  <!DOCTYPE html><p>x"), "cat.png").mime).toBe("text/html");
    expect(sniff(bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), "logo.png").mime).toBe(
      "image/svg+xml",
    );
    expect(sniff(bytes("<svg onload=alert(1)>"), "x").mime).toBe("image/svg+xml");
    expect(fileTypeOf("image/svg+xml")).toBe("file");
  });

  test("the name speaks only when the bytes say nothing, and never for images", () => {
    expect(sniff(bytes("a,b\n1,2\n"), "data.csv")).toEqual({ mime: "text/csv", extension: "csv" });
    expect(sniff(bytes([0x50, 0x4b, 3, 4]), "report.docx").mime).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(sniff(bytes("not an image"), "fake.png")).toEqual({ mime: "application/octet-stream", extension: "png" });
    expect(fileTypeOf("application/octet-stream")).toBe("file");
  });
});

describe("imageSize", () => {
  test("PNG, GIF, JPEG (also after a large EXIF block), WebP, BMP", () => {
    expect(imageSize("image/png", pngFile(31, 17))).toEqual({ width: 31, height: 17 });
    expect(imageSize("image/gif", bytes("GIF89a", [0x40, 0x01, 0xf0, 0x00]))).toEqual({ width: 320, height: 240 });
    expect(imageSize("image/jpeg", jpegOf(1280, 720))).toEqual({ width: 1280, height: 720 });
    expect(imageSize("image/jpeg", jpegOf(640, 480, 60_000))).toEqual({ width: 640, height: 480 });
    const vp8x = bytes(
      "RIFF",
      [0, 0, 0, 0],
      "WEBPVP8X",
      [10, 0, 0, 0, 0, 0, 0, 0],
      [0x3f, 0x01, 0x00],
      [0xef, 0x00, 0x00],
    );
    expect(imageSize("image/webp", vp8x)).toEqual({ width: 320, height: 240 });
    const bmp = new Uint8Array(30);
    bmp.set([0x42, 0x4d]);
    new DataView(bmp.buffer).setInt32(18, 64, true);
    new DataView(bmp.buffer).setInt32(22, -48, true); // top-down bitmaps have a negative height
    expect(imageSize("image/bmp", bmp)).toEqual({ width: 64, height: 48 });
  });

  test("truncated or corrupt headers answer null, never throw", () => {
    expect(imageSize("image/png", pngFile(3, 3).subarray(0, 20))).toBeNull();
    expect(imageSize("image/jpeg", bytes([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
    expect(imageSize("image/jpeg", jpegOf(10, 10).subarray(0, 12))).toBeNull();
    expect(imageSize("image/webp", bytes("RIFF"))).toBeNull();
  });
});
