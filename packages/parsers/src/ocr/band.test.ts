import { describe, expect, it } from 'vitest';
import { inkedBand } from './band.js';

describe('inkedBand', () => {
  it('cuts the band of the page with the most inked rows, the full width', () => {
    // a 10×100 page, white but for rows 60-79 (a paragraph) and row 5 (a rule)
    const grey = new Uint8Array(10 * 100).fill(255);
    for (let y = 60; y < 80; y++) grey.fill(0, y * 10, y * 10 + 3);
    grey[5 * 10 + 4] = 0;
    const band = inkedBand({ width: 10, height: 100, grey }, 0.25);
    expect(band.top).toBe(55);
    expect(new TextDecoder('latin1').decode(band.image.subarray(0, 13))).toBe('P5\n10 25\n255\n');
    expect(band.image.length).toBe(13 + 10 * 25);
    expect(band.image[13 + 5 * 10]).toBe(0);
  });
});
