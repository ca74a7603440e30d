import JSZip from 'jszip';
import type { XmlElement } from './ooxml-tree.js';
import { childNamed, childrenNamed, descendant, readXml } from './ooxml-tree.js';

/** [x0, y0, x1, y1] in EMU on the slide, top-left origin. */
type EmuBox = [number, number, number, number];

export interface SlideCell {
  /** 0-based grid column and row; a merged cell counts from its top-left grid cell. */
  col: number;
  row: number;
  colSpan: number;
  rowSpan: number;
  text: string;
  box: EmuBox;
}

export interface SlideTable {
  /** 0-based slide (= page of the derived PDF). */
  slide: number;
  /** The table's title: the slide's title placeholder text, when it has one. */
  title?: string;
  /** The table style marks its first row as a header row (`<a:tblPr firstRow="1">`). */
  firstRow: boolean;
  /** Grid rows, each the cells that start in it (cells covered by a merge left out). */
  rows: SlideCell[][];
  /** The table's extent on the slide. */
  box: EmuBox;
  /** Grid lines on the slide: column edges left to right, row edges top to bottom (stored heights). */
  xs: number[];
  ys: number[];
}

/** Slide size (EMU) and the tables of every slide, in slide order. */
export interface DeckTables {
  width: number;
  height: number;
  slides: number;
  tables: SlideTable[];
}

/** Maps child coordinates of a group into slide coordinates. */
interface Transform {
  x: (v: number) => number;
  y: (v: number) => number;
}

const identity: Transform = { x: (v) => v, y: (v) => v };
const num = (el: XmlElement | undefined, name: string): number => Number(el?.attrs[name] ?? 0) || 0;

/** The transform a group shape (<p:grpSp>) applies to its children: chOff/chExt onto off/ext. */
function groupTransform(group: XmlElement, outer: Transform): Transform {
  const xfrm = childNamed(childNamed(group, 'p:grpSpPr'), 'a:xfrm');
  const off = childNamed(xfrm, 'a:off');
  const ext = childNamed(xfrm, 'a:ext');
  const chOff = childNamed(xfrm, 'a:chOff');
  const chExt = childNamed(xfrm, 'a:chExt');
  const sx = num(chExt, 'cx') > 0 ? num(ext, 'cx') / num(chExt, 'cx') : 1;
  const sy = num(chExt, 'cy') > 0 ? num(ext, 'cy') / num(chExt, 'cy') : 1;
  return {
    x: (v) => outer.x(num(off, 'x') + (v - num(chOff, 'x')) * sx),
    y: (v) => outer.y(num(off, 'y') + (v - num(chOff, 'y')) * sy),
  };
}

/** A cell's visible text: its paragraphs' runs (line breaks as spaces), paragraphs joined by a space. */
function cellText(tc: XmlElement): string {
  const paragraphs = childrenNamed(childNamed(tc, 'a:txBody'), 'a:p').map((p) =>
    p.children
      .map((r) => (r.name === 'a:br' ? ' ' : r.name === 'a:r' || r.name === 'a:fld' ? (childNamed(r, 'a:t')?.text ?? '') : ''))
      .join(''),
  );
  return paragraphs.join(' ').replace(/\s+/g, ' ').trim();
}

/** One <a:tbl> of a graphic frame at `off` (slide EMU through `t`). */
function readTable(tbl: XmlElement, frame: XmlElement, t: Transform, slide: number): SlideTable {
  const off = childNamed(childNamed(frame, 'p:xfrm'), 'a:off');
  const x = num(off, 'x');
  const y = num(off, 'y');
  const widths = childrenNamed(childNamed(tbl, 'a:tblGrid'), 'a:gridCol').map((c) => num(c, 'w'));
  const trs = childrenNamed(tbl, 'a:tr');
  const heights = trs.map((tr) => num(tr, 'h'));
  const xs = [x];
  for (const w of widths) xs.push((xs.at(-1) as number) + w);
  const ys = [y];
  for (const h of heights) ys.push((ys.at(-1) as number) + h);
  const at = (grid: number[], i: number): number => grid[Math.min(i, grid.length - 1)] as number;
  const rows = trs.map((tr, r) => {
    const cells: SlideCell[] = [];
    childrenNamed(tr, 'a:tc').forEach((tc, col) => {
      if (tc.attrs.hMerge === '1' || tc.attrs.vMerge === '1') return;
      const colSpan = Math.max(1, num(tc, 'gridSpan'));
      const rowSpan = Math.max(1, num(tc, 'rowSpan'));
      const box: EmuBox = [t.x(at(xs, col)), t.y(at(ys, r)), t.x(at(xs, col + colSpan)), t.y(at(ys, r + rowSpan))];
      cells.push({ col, row: r, colSpan, rowSpan, text: cellText(tc), box });
    });
    return cells;
  });
  return {
    slide,
    firstRow: childNamed(tbl, 'a:tblPr')?.attrs.firstRow === '1',
    rows,
    box: [t.x(x), t.y(y), t.x(xs.at(-1) as number), t.y(ys.at(-1) as number)],
    xs: xs.map(t.x),
    ys: ys.map(t.y),
  };
}

/** The tables in a shape tree, groups' transforms applied, in document order. */
function treeTables(tree: XmlElement, t: Transform, slide: number, out: SlideTable[]): void {
  for (const child of tree.children) {
    if (child.name === 'p:grpSp') treeTables(child, groupTransform(child, t), slide, out);
    else if (child.name === 'p:graphicFrame') {
      const tbl = descendant(child, 'a:tbl');
      if (tbl) out.push(readTable(tbl, child, t, slide));
    }
  }
}

/** The text of the slide's title placeholder, if any. */
function slideTitle(tree: XmlElement): string | undefined {
  for (const sp of childrenNamed(tree, 'p:sp')) {
    const ph = descendant(childNamed(sp, 'p:nvSpPr'), 'p:ph');
    if (ph?.attrs.type !== 'title' && ph?.attrs.type !== 'ctrTitle') continue;
    const text = childrenNamed(childNamed(sp, 'p:txBody'), 'a:p')
      .map((p) =>
        childrenNamed(p, 'a:r')
          .map((r) => childNamed(r, 'a:t')?.text ?? '')
          .join(''),
      )
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text;
  }
  return undefined;
}

/** Resolves a relationship target against the folder of the part that holds it. */
function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/**
 * Reads the tables (`<a:tbl>` in graphic frames, inside groups too) of every slide of a .pptx, in
 * the presentation's slide order, with each cell's box on the slide from the frame's offset and the
 * grid's column widths and row heights. The package was checked by the zip guard; nothing is run.
 */
export async function readDeckTables(bytes: Uint8Array): Promise<DeckTables> {
  const zip = await JSZip.loadAsync(bytes);
  const part = async (name: string): Promise<XmlElement | undefined> => {
    const file = zip.file(name);
    return file ? readXml(await file.async('string')) : undefined;
  };
  const presentation = childNamed(await part('ppt/presentation.xml'), 'p:presentation');
  const rels = childNamed(await part('ppt/_rels/presentation.xml.rels'), 'Relationships');
  const targets = new Map(childrenNamed(rels, 'Relationship').map((r) => [r.attrs.Id, r.attrs.Target ?? '']));
  const size = childNamed(presentation, 'p:sldSz');
  const ids = childrenNamed(childNamed(presentation, 'p:sldIdLst'), 'p:sldId');
  const tables: SlideTable[] = [];
  for (const [slide, id] of ids.entries()) {
    const target = targets.get(id.attrs['r:id']);
    if (!target) continue;
    const tree = descendant(childNamed(await part(resolveTarget('ppt/presentation.xml', target)), 'p:sld'), 'p:spTree');
    if (!tree) continue;
    const found: SlideTable[] = [];
    treeTables(tree, identity, slide, found);
    const title = found.length > 0 ? slideTitle(tree) : undefined;
    for (const table of found) tables.push(title ? { ...table, title } : table);
  }
  return { width: num(size, 'cx'), height: num(size, 'cy'), slides: ids.length, tables };
}
