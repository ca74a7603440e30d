import type { WorkerDict, WorkerStream, WorkerXRef } from '../page-content.js';

/**
 * Colour, as far as a page's drawn lines need it: whether a colour paints white (white paint is not a
 * ruling). A colour space is read from the page's resources the way pdf.js reads it; a colour is white
 * when pdf.js would paint it #ffffff (each channel × 255, rounded as a byte).
 */
export type ColourSpace =
  | { kind: 'gray' | 'rgb' | 'cmyk' | 'pattern' | 'other' }
  | { kind: 'tint'; n: number }
  | { kind: 'indexed'; base: ColourSpace; lookup: Uint8Array };

export const GRAY: ColourSpace = { kind: 'gray' };
const DEVICE: Record<string, ColourSpace> = {
  G: GRAY,
  DeviceGray: GRAY,
  CalGray: GRAY,
  RGB: { kind: 'rgb' },
  DeviceRGB: { kind: 'rgb' },
  CalRGB: { kind: 'rgb' },
  CMYK: { kind: 'cmyk' },
  DeviceCMYK: { kind: 'cmyk' },
  Pattern: { kind: 'pattern' },
};
const BY_COMPONENTS: Record<number, ColourSpace> = { 1: GRAY, 3: { kind: 'rgb' }, 4: { kind: 'cmyk' } };

const byte = new Uint8ClampedArray(1);
const isFull = (x: number | undefined): boolean => {
  byte[0] = (x ?? Number.NaN) * 255;
  return byte[0] === 255;
};

const nameOf = (v: unknown): string | undefined =>
  v && typeof v === 'object' && 'name' in v && typeof v.name === 'string' ? v.name : undefined;

function lookupBytes(value: unknown): Uint8Array {
  if (typeof value === 'string') return Uint8Array.from(value, (ch) => ch.charCodeAt(0));
  const stream = value as WorkerStream | undefined;
  if (stream && typeof stream.getBytes === 'function') {
    stream.reset();
    return stream.getBytes();
  }
  return new Uint8Array(0);
}

function fromArray(cs: unknown[], resources: WorkerDict, xref: WorkerXRef, depth: number): ColourSpace {
  const mode = nameOf(xref.fetchIfRef(cs[0])) ?? '';
  if (mode === 'ICCBased') {
    const dict = (xref.fetchIfRef(cs[1]) as WorkerStream | undefined)?.dict;
    const n = Number(dict?.get('N'));
    const alternate = dict?.getRaw('Alternate');
    if (alternate) return resolveColourSpace(alternate, resources, xref, depth + 1);
    return BY_COMPONENTS[n] ?? { kind: 'other' };
  }
  if (mode === 'Separation' || mode === 'DeviceN') {
    const names = xref.fetchIfRef(cs[1]);
    return { kind: 'tint', n: Array.isArray(names) ? names.length : 1 };
  }
  if (mode === 'Indexed' || mode === 'I') {
    const base = resolveColourSpace(cs[1], resources, xref, depth + 1);
    return { kind: 'indexed', base, lookup: lookupBytes(xref.fetchIfRef(cs[3])) };
  }
  return DEVICE[mode] ?? { kind: 'other' };
}

/** The colour space a `cs`/`CS` operand or a resource entry names; an unknown name reads as gray, as in pdf.js. */
export function resolveColourSpace(value: unknown, resources: WorkerDict, xref: WorkerXRef, depth = 0): ColourSpace {
  if (depth > 8) return { kind: 'other' };
  const cs = xref.fetchIfRef(value);
  if (Array.isArray(cs)) return fromArray(cs, resources, xref, depth);
  const name = typeof cs === 'string' ? cs : nameOf(cs);
  if (name === undefined) return { kind: 'other' };
  const device = DEVICE[name];
  if (device) return device;
  const named = (resources.get('ColorSpace') as WorkerDict | undefined)?.get?.(name);
  return named ? resolveColourSpace(named, resources, xref, depth + 1) : GRAY;
}

/** Components per colour of a space with a fixed count (for reading an indexed colour's entry). */
const COMPONENTS: Record<string, number> = { gray: 1, rgb: 3, cmyk: 4 };

/** Whether components `nums[0..]` in `space` paint white; undefined for a pattern (the fill is not a colour). */
export function paintsWhite(space: ColourSpace, nums: ArrayLike<number>): boolean | undefined {
  switch (space.kind) {
    case 'gray':
      return isFull(nums[0]);
    case 'rgb':
      return isFull(nums[0]) && isFull(nums[1]) && isFull(nums[2]);
    case 'cmyk':
      return nums[0] === 0 && nums[1] === 0 && nums[2] === 0 && nums[3] === 0;
    case 'tint':
      return Array.from({ length: space.n }, (_, i) => nums[i]).every((t) => t === 0);
    case 'indexed': {
      const n = COMPONENTS[space.base.kind];
      if (!n) return false;
      const at = Math.max(0, Math.round(nums[0] ?? 0)) * n;
      const entry = Array.from(space.lookup.subarray(at, at + n), (v) => v / 255);
      return entry.length === n && paintsWhite(space.base, entry);
    }
    case 'pattern':
      return undefined;
    default:
      return false;
  }
}
