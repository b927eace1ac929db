/**
 * What an uploaded photo or scan of a resume is, read from its header alone — before anything decodes it: a crafted
 * image declares 50 000 × 50 000 pixels in a few hundred bytes (10 GB once decoded), so its size is checked first.
 */
import { ResumeParseError } from './resume-parse-error.ts';

/** Sides and pixel count an image may declare: an A4 page scanned at 600 dpi is 4 960 × 7 016 (35 Mpx). */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 40_000_000;

export type TImageSize = { width: number; height: number };

/** PNG: the IHDR chunk follows the signature; width and height are its first two 32-bit big-endian fields. */
function pngSize(bytes: Uint8Array): TImageSize | null {
  if (bytes.byteLength < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // "IHDR" at offset 12.
  if (view.getUint32(12) !== 0x49484452) return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** JPEG: walks the marker segments to the first start-of-frame (SOF0–SOF15 except DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array): TImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  // A header is small; a file whose first frame is further than this is not a photo of a page.
  const end = Math.min(bytes.byteLength, 1024 * 1024);
  while (at + 9 < end) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/**
 * The declared size of a PNG or JPEG, refused when it cannot be read or is larger than a scanned page can be.
 *
 * @throws ResumeParseError for an unreadable header or an image over the limits.
 */
export function checkImageSize(bytes: Uint8Array, kind: 'png' | 'jpeg'): TImageSize {
  const size = kind === 'png' ? pngSize(bytes) : jpegSize(bytes);
  const label = kind === 'png' ? 'PNG image' : 'JPEG image';
  if (size === null || size.width === 0 || size.height === 0)
    throw new ResumeParseError(`The ${label} could not be read.`);
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new ResumeParseError(
      `The ${label} is too large (${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_SIDE} per side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels).`,
    );
  }
  return size;
}
