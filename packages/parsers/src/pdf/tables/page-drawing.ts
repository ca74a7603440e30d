import type { PageContent, WorkerDict, WorkerStream, WorkerXRef } from '../page-content.js';
import type { Operation } from './content-ops.js';
import { opCode, readOperations } from './content-ops.js';
import type { ColourSpace } from './paint-colour.js';
import { GRAY, paintsWhite, resolveColourSpace } from './paint-colour.js';

export type Matrix = [number, number, number, number, number, number];

/** How a path is painted: filled and/or stroked, each only when its paint is not white. */
interface Paint {
  filled: boolean;
  stroked: boolean;
}

/**
 * Receives each painted path: a pdf.js-style path buffer (moveTo 0 x y, lineTo 1 x y, curveTo 2 and
 * six figures, closePath 4; figures rounded to 32-bit floats as pdf.js keeps them) in the user space of
 * `m`. Returns false to stop reading.
 */
export type PathVisitor = (path: Float32Array, m: Matrix, paint: Paint) => boolean;

/** Operators read at most per page (forms included): beyond this the page's drawing is cut (`capped`). */
const MAX_OPERATORS = 2_000_000;
/** Content bytes read at most per page (a form drawn again and again is read again). */
const MAX_BYTES = 64 * 1024 * 1024;
/** Forms inside forms, at most. */
const MAX_FORM_DEPTH = 12;

const multiply = (m: Matrix, n: ArrayLike<number>): Matrix => [
  (n[0] as number) * m[0] + (n[1] as number) * m[2],
  (n[0] as number) * m[1] + (n[1] as number) * m[3],
  (n[2] as number) * m[0] + (n[3] as number) * m[2],
  (n[2] as number) * m[1] + (n[3] as number) * m[3],
  (n[4] as number) * m[0] + (n[5] as number) * m[2] + m[4],
  (n[4] as number) * m[1] + (n[5] as number) * m[3] + m[5],
];

const O = {
  q: opCode('q'),
  Q: opCode('Q'),
  cm: opCode('cm'),
  m: opCode('m'),
  l: opCode('l'),
  c: opCode('c'),
  v: opCode('v'),
  y: opCode('y'),
  h: opCode('h'),
  re: opCode('re'),
  g: opCode('g'),
  G: opCode('G'),
  rg: opCode('rg'),
  RG: opCode('RG'),
  k: opCode('k'),
  K: opCode('K'),
  cs: opCode('cs'),
  CS: opCode('CS'),
  sc: opCode('sc'),
  SC: opCode('SC'),
  scn: opCode('scn'),
  SCN: opCode('SCN'),
  Do: opCode('Do'),
};

/** Painting operators: [fills, strokes, closes the path first]; `n` paints nothing. */
const PAINTS = new Map<number, [boolean, boolean, boolean]>([
  [opCode('S'), [false, true, false]],
  [opCode('s'), [false, true, true]],
  [opCode('f'), [true, false, false]],
  [opCode('F'), [true, false, false]],
  [opCode('f*'), [true, false, false]],
  [opCode('B'), [true, true, false]],
  [opCode('B*'), [true, true, false]],
  [opCode('b'), [true, true, true]],
  [opCode('b*'), [true, true, true]],
  [opCode('n'), [false, false, false]],
]);

/** g/G, rg/RG, k/K: the device space they set and the operands they take. */
const DEVICE_COLOURS = new Map<number, { space: ColourSpace; n: number }>([
  [O.g, { space: GRAY, n: 1 }],
  [O.G, { space: GRAY, n: 1 }],
  [O.rg, { space: { kind: 'rgb' }, n: 3 }],
  [O.RG, { space: { kind: 'rgb' }, n: 3 }],
  [O.k, { space: { kind: 'cmyk' }, n: 4 }],
  [O.K, { space: { kind: 'cmyk' }, n: 4 }],
]);

/** Operands each path operator takes. */
const PATH_ARGS = new Map([
  [O.m, 2],
  [O.l, 2],
  [O.c, 6],
  [O.v, 4],
  [O.y, 4],
  [O.h, 0],
  [O.re, 4],
]);

/** Colour of one side (fill or stroke): its space as pdf.js's state keeps it, and whether it is white. */
interface Side {
  space: ColourSpace;
  /** The space `scn` reads in; null until a colour or space is set, as in pdf.js. */
  nSpace: ColourSpace | null;
  white: boolean;
}

interface Scope {
  resources: WorkerDict;
  /** Saves (q) not yet restored in this content stream: restored when it ends, as pdf.js does. */
  open: number;
}

/** Whether the operator has at least `want` operands and the last `want` are numbers (pdf.js keeps the last ones). */
function hasNumbers(op: Operation, want: number): boolean {
  if (op.count < want) return false;
  for (let i = op.count - want; i < op.count; i++) if (Number.isNaN(op.nums[i])) return false;
  return true;
}

/** The `k`-th of the last `want` operands. */
const arg = (op: Operation, want: number, k: number): number => op.nums[op.count - want + k] as number;

const f32 = Math.fround;

/** Reads a page's drawing: path painting with the transform and colours in force, forms entered. */
class DrawingReader {
  m: Matrix = [1, 0, 0, 1, 0, 0];
  readonly stack: Matrix[] = [];
  fill: Side = { space: GRAY, nSpace: null, white: false };
  stroke: Side = { space: GRAY, nSpace: null, white: false };
  readonly saved: Array<{ fill: Side; stroke: Side }> = [];
  path: number[] = [];
  x = 0;
  y = 0;
  operators = 0;
  bytes = 0;
  capped = false;
  stopped = false;
  readonly forms = new Map<string, Uint8Array>();
  readonly entered = new Set<unknown>();

  constructor(
    readonly xref: WorkerXRef,
    readonly visit: PathVisitor,
  ) {}

  read(bytes: Uint8Array, scope: Scope, depth: number): void {
    this.bytes += bytes.length;
    if (this.bytes > MAX_BYTES) {
      this.capped = true;
      return;
    }
    readOperations(bytes, (op) => this.operate(op, scope, depth));
    for (; scope.open > 0; scope.open--) this.restore();
  }

  save(): void {
    this.stack.push(this.m);
    this.saved.push({ fill: { ...this.fill }, stroke: { ...this.stroke } });
  }

  restore(): void {
    this.m = this.stack.pop() ?? this.m;
    const last = this.saved.pop();
    if (last) [this.fill, this.stroke] = [last.fill, last.stroke];
  }

  operate(op: Operation, scope: Scope, depth: number): boolean {
    if (this.stopped || ++this.operators > MAX_OPERATORS) {
      this.capped ||= !this.stopped;
      return false;
    }
    const code = op.op;
    const paint = PAINTS.get(code);
    if (paint) this.paint(paint);
    else if (PATH_ARGS.has(code)) this.build(code, op);
    else if (code === O.q) {
      this.save();
      scope.open++;
    } else if (code === O.Q) {
      this.restore();
      scope.open = Math.max(0, scope.open - 1);
    } else if (code === O.cm) {
      if (hasNumbers(op, 6)) this.m = multiply(this.m, op.nums.subarray(op.count - 6, op.count));
    } else if (code === O.Do && op.name !== undefined) this.form(op.name, scope, depth);
    else this.colour(code, op, scope);
    return !this.stopped;
  }

  /** A path operator: its figures added to the path being built, as pdf.js builds it. */
  build(code: number, op: Operation): void {
    const want = PATH_ARGS.get(code) as number;
    if (!hasNumbers(op, want)) return;
    const p = this.path;
    if (code === O.re) {
      const [x, y, w, h] = [arg(op, want, 0), arg(op, want, 1), arg(op, want, 2), arg(op, want, 3)];
      [this.x, this.y] = [x, y];
      if (w === 0 || h === 0) p.push(0, x, y, 1, x + w, y + h, 4);
      else p.push(0, x, y, 1, x + w, y, 1, x + w, y + h, 1, x, y + h, 4);
    } else if (code === O.m || code === O.l) {
      [this.x, this.y] = [arg(op, want, 0), arg(op, want, 1)];
      p.push(code === O.m ? 0 : 1, this.x, this.y);
    } else if (code === O.c) {
      p.push(2, arg(op, want, 0), arg(op, want, 1), arg(op, want, 2), arg(op, want, 3), arg(op, want, 4), arg(op, want, 5));
      [this.x, this.y] = [arg(op, want, 4), arg(op, want, 5)];
    } else if (code === O.v) {
      p.push(2, this.x, this.y, arg(op, want, 0), arg(op, want, 1), arg(op, want, 2), arg(op, want, 3));
      [this.x, this.y] = [arg(op, want, 2), arg(op, want, 3)];
    } else if (code === O.y) {
      p.push(2, arg(op, want, 0), arg(op, want, 1), arg(op, want, 2), arg(op, want, 3), arg(op, want, 2), arg(op, want, 3));
      [this.x, this.y] = [arg(op, want, 2), arg(op, want, 3)];
    } else p.push(4);
  }

  paint([fills, strokes, closes]: [boolean, boolean, boolean]): void {
    if (closes) this.path.push(4);
    const path = this.path;
    this.path = [];
    const filled = fills && !this.fill.white;
    const stroked = strokes && !this.stroke.white;
    if (path.length === 0 || (!filled && !stroked)) return;
    const buffer = Float32Array.from(path, f32);
    if (!this.visit(buffer, this.m, { filled, stroked })) this.stopped = true;
  }

  /** A colour operator: the side's space as pdf.js's state keeps it, and whether it now paints white. */
  colour(code: number, op: Operation, scope: Scope): void {
    const stroke = code === O.G || code === O.RG || code === O.K || code === O.CS || code === O.SC || code === O.SCN;
    const side = stroke ? this.stroke : this.fill;
    const device = DEVICE_COLOURS.get(code);
    let white: boolean | undefined;
    if (device) {
      if (!hasNumbers(op, device.n)) return;
      side.space = side.nSpace = device.space;
      white = paintsWhite(device.space, op.nums.subarray(op.count - device.n, op.count));
    } else if (code === O.cs || code === O.CS) {
      if (op.name !== undefined) side.space = side.nSpace = resolveColourSpace(op.name, scope.resources, this.xref);
      return;
    } else if (code === O.sc || code === O.SC) white = paintsWhite(side.space, op.nums.subarray(0, op.count));
    else if (code === O.scn || code === O.SCN) {
      const nums = op.nums.subarray(0, op.count);
      if (side.nSpace) white = paintsWhite(side.nSpace, nums);
      else if (op.count > 0 && !nums.some(Number.isNaN)) white = paintsWhite(GRAY, nums);
    }
    if (white !== undefined) side.white = white;
  }

  /** `/name Do` of a form XObject: its content read with its matrix, in its own resources. */
  form(name: string, scope: Scope, depth: number): void {
    const raw = (scope.resources.get('XObject') as WorkerDict | undefined)?.getRaw?.(name);
    if (raw === undefined || depth >= MAX_FORM_DEPTH || this.entered.has(raw)) return;
    const stream = this.xref.fetchIfRef(raw) as WorkerStream | undefined;
    const dict = stream?.dict;
    const subtype = dict?.get('Subtype') as { name?: string } | undefined;
    if (!stream || !dict || subtype?.name !== 'Form') return;
    const key =
      raw && typeof raw === 'object' && 'num' in raw ? `${String(raw.num)}R${String((raw as { gen?: number }).gen)}` : undefined;
    const bytes = (key && this.forms.get(key)) || readForm(stream);
    if (key) this.forms.set(key, bytes);
    const matrix = dict.get('Matrix');
    const resources = (dict.get('Resources') as WorkerDict | undefined) ?? scope.resources;
    this.stack.push(this.m);
    if (Array.isArray(matrix) && matrix.length === 6 && matrix.every((v) => typeof v === 'number'))
      this.m = multiply(this.m, matrix);
    // pdf.js keeps the colour spaces of before the form after it (its state is saved around a form)
    const spaces = [this.fill.space, this.fill.nSpace, this.stroke.space, this.stroke.nSpace] as const;
    this.entered.add(raw);
    this.read(bytes, { resources, open: 0 }, depth + 1);
    this.entered.delete(raw);
    this.m = this.stack.pop() ?? this.m;
    [this.fill.space, this.fill.nSpace, this.stroke.space, this.stroke.nSpace] = spaces;
  }
}

function readForm(stream: WorkerStream): Uint8Array {
  try {
    stream.reset();
    return stream.getBytes();
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * Every painted path of a page, in drawing order, from its content stream (and its forms') read once
 * more as bytes: only path building, painting, the transform and colours are kept. `capped` when the
 * page draws more than MAX_OPERATORS operators or MAX_BYTES of content.
 */
export function readPageDrawing(content: PageContent, visit: PathVisitor): { capped: boolean } {
  const reader = new DrawingReader(content.xref, visit);
  reader.read(content.bytes, { resources: content.resources, open: 0 }, 0);
  return { capped: reader.capped };
}
