import { type GreyPage, greyToPgm } from '../tiff/tiff-raster.js';

/** A row is inked when it holds a pixel darker than this. */
const INK = 128;

/**
 * The band of the page, `share` of its height and its full width, that holds the most inked rows, as PGM with
 * its top: a sample of the page's text to try models on before the whole page is read with one of them.
 */
export function inkedBand(page: GreyPage, share: number): { image: Uint8Array; top: number } {
  const { width: w, height: h, grey } = page;
  const inked = new Uint8Array(h);
  for (let y = 0; y < h; y++)
    for (let x = y * w; x < (y + 1) * w; x++)
      if ((grey[x] as number) < INK) {
        inked[y] = 1;
        break;
      }
  const size = Math.max(1, Math.min(h, Math.round(h * share)));
  let count = 0;
  for (let y = 0; y < size; y++) count += inked[y] as number;
  let best = count;
  let top = 0;
  for (let y = size; y < h; y++) {
    count += (inked[y] as number) - (inked[y - size] as number);
    if (count > best) {
      best = count;
      top = y - size + 1;
    }
  }
  const band = { width: w, height: size, grey: grey.subarray(top * w, (top + size) * w) };
  return { image: greyToPgm(band), top };
}
