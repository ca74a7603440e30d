import type {
  Anchor,
  Box,
  Element,
  PageAnchor,
  PageView,
  Precision,
  RecordAnchor,
  RecordView,
  ResolvedCitation,
  TextAnchor,
  TextView,
  Version,
} from '@pinpoint/core';
import { createError, rawRangeOf, recordEntrySchema, sha256Hex, sliceCodepoints } from '@pinpoint/core';
import { readArtifact } from './artifacts.js';
import type { EnginePorts } from './config.js';

export interface CitationRef {
  version_id: string;
  chunk_id?: string;
  element_id?: string;
  /** The citation's anchor; narrows the view to the cited span. */
  anchor?: Anchor;
}

const artifactUrl = (versionId: string, kind: string): string =>
  `/api/versions/${encodeURIComponent(versionId)}/artifacts/${encodeURIComponent(kind)}`;

/** Box b lies inside box o, give or take rounding (boxes are stored to a hundredth of a unit). */
const within = (b: Box, o: Box, eps = 0.01): boolean =>
  b[0] >= o[0] - eps && b[1] >= o[1] - eps && b[2] <= o[2] + eps && b[3] <= o[3] + eps;

/** The element's text under the cited boxes: from its first to its last span inside one of them. */
function textUnderBoxes(element: Element, boxes: readonly Box[]): string {
  const spans = (element.spans ?? []).filter((s) => boxes.some((b) => within(s.box, b)));
  if (spans.length === 0) return element.text;
  const start = Math.min(...spans.map((s) => s.start));
  const end = Math.max(...spans.map((s) => s.end));
  return sliceCodepoints(element.text, start, end);
}

/**
 * The raw span (HTML, JSON) of a cited text range, from the element's stored raw map — never the
 * range a caller sent. Without a map (a version-1 source map) the cited range is kept only inside the
 * element's own raw range, else the element's range stands.
 */
function storedRaw(element: Element, cited: TextAnchor): TextAnchor['raw'] {
  const own = element.anchor;
  if (own.kind !== 'text' || !own.raw) return undefined;
  if (element.raw_map) return rawRangeOf(element.raw_map, cited.start - own.start, cited.end - own.start) ?? own.raw;
  const r = cited.raw;
  return r && r.start >= own.raw.start && r.end <= own.raw.end && r.start < r.end ? r : own.raw;
}

/** Is the cited anchor a part of the element's own anchor? Then the highlight is exact; otherwise it is the element. */
function precisionOf(cited: Anchor, own: Anchor): Precision {
  if (cited.kind !== own.kind) return 'unresolved';
  if (cited.kind === 'text' && own.kind === 'text') {
    return cited.start >= own.start && cited.end <= own.end && cited.start < cited.end ? 'exact' : 'unresolved';
  }
  if (cited.kind === 'page' && own.kind === 'page')
    return cited.page_index === own.page_index &&
      cited.boxes.length > 0 &&
      cited.boxes.every((b) => own.boxes.some((o) => within(b, o)))
      ? 'exact'
      : 'unresolved';
  if (cited.kind === 'record' && own.kind === 'record') return cited.record_id === own.record_id ? 'exact' : 'unresolved';
  return 'unresolved';
}

/**
 * What the reader draws a page from: the artifact the anchor names, except a TIFF's page, shown from the PNG the
 * parser rendered of it (`page-image`, named by the page index) — browsers do not draw TIFF; the boxes are the same pixels.
 */
async function pageSource(ports: EnginePorts, version: Version, a: PageAnchor): Promise<{ url: string; sha256: string }> {
  if (version.format === 'tiff' && a.artifact === 'original') {
    const name = String(a.page_index);
    const { artifact } = await readArtifact(ports, version.version_id, 'page-image', name);
    return { url: `${artifactUrl(version.version_id, 'page-image')}?name=${name}`, sha256: artifact.sha256 };
  }
  const { artifact } = await readArtifact(ports, version.version_id, a.artifact);
  return { url: artifactUrl(version.version_id, a.artifact), sha256: artifact.sha256 };
}

async function pageView(ports: EnginePorts, version: Version, a: PageAnchor): Promise<PageView> {
  const source = await pageSource(ports, version, a);
  return {
    kind: 'page',
    artifact: a.artifact,
    artifact_url: source.url,
    artifact_sha256: source.sha256,
    page_index: a.page_index,
    ...(a.page_label !== undefined ? { page_label: a.page_label } : {}),
    page_width: a.page_width,
    page_height: a.page_height,
    unit: a.unit,
    rotation: a.rotation,
    boxes: a.boxes,
  };
}

async function textView(ports: EnginePorts, version: Version, a: TextAnchor): Promise<TextView> {
  const { bytes } = await readArtifact(ports, version.version_id, 'text');
  if (sha256Hex(bytes) !== a.text_sha256) {
    throw createError(
      'PP_ARTIFACT_HASH_MISMATCH',
      `The decoded text of version ${version.version_id} does not match the citation's text_sha256.`,
    );
  }
  return {
    kind: 'text',
    artifact_url: artifactUrl(version.version_id, 'text'),
    text: new TextDecoder().decode(bytes),
    text_sha256: a.text_sha256,
    start: a.start,
    end: a.end,
    ...(a.raw ? { raw: a.raw } : {}),
  };
}

async function recordView(ports: EnginePorts, version: Version, a: RecordAnchor): Promise<RecordView> {
  const { bytes } = await readArtifact(ports, version.version_id, 'records.jsonl');
  if (sha256Hex(bytes) !== a.records_sha256) {
    throw createError(
      'PP_ARTIFACT_HASH_MISMATCH',
      `The records of version ${version.version_id} do not match the citation's records_sha256.`,
    );
  }
  const lines = new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((l) => l.trim() !== '');
  return {
    kind: 'record',
    artifact_url: artifactUrl(version.version_id, 'records.jsonl'),
    records: lines.map((l) => recordEntrySchema.parse(JSON.parse(l))),
    records_sha256: a.records_sha256,
    record_id: a.record_id,
    ...(a.sheet !== undefined ? { sheet: a.sheet } : {}),
    ...(a.row !== undefined ? { row: a.row } : {}),
    ...(a.cell_range !== undefined ? { cell_range: a.cell_range } : {}),
    ...(a.paragraph_index !== undefined ? { paragraph_index: a.paragraph_index } : {}),
    ...(a.physical_lines !== undefined ? { physical_lines: a.physical_lines } : {}),
  };
}

async function newerVersionId(ports: EnginePorts, version: Version): Promise<string | null> {
  const versions = await ports.metadata.listVersions({ documentId: version.document_id, state: 'ready' });
  const newer = versions.filter((v) => v.number > version.number).sort((a, b) => b.number - a.number);
  return newer[0]?.version_id ?? null;
}

async function citedElement(ports: EnginePorts, ref: CitationRef): Promise<Element> {
  let elementId = ref.element_id;
  if (!elementId && ref.chunk_id) {
    const [chunk] = await ports.metadata.getChunks([ref.chunk_id]);
    if (!chunk || chunk.version_id !== ref.version_id)
      throw createError('PP_NOT_FOUND', `Chunk ${ref.chunk_id} is not part of version ${ref.version_id}.`);
    elementId = chunk.elements[0]?.element_id;
  }
  if (!elementId) throw createError('PP_VALIDATION', 'A citation needs an element_id or a chunk_id.');
  const [element] = await ports.metadata.getElements(ref.version_id, [elementId]);
  if (!element) throw createError('PP_NOT_FOUND', `Element ${elementId} is not part of version ${ref.version_id}.`);
  return element;
}

/** Everything the reader needs to show a citation, from stored maps alone (DESIGN.md §4.4). */
export async function resolveCitation(ports: EnginePorts, ref: CitationRef): Promise<ResolvedCitation> {
  const version = await ports.metadata.getVersion(ref.version_id);
  if (!version) throw createError('PP_NOT_FOUND', `Version ${ref.version_id} does not exist.`);
  const element = await citedElement(ports, ref);
  const precision = ref.anchor ? precisionOf(ref.anchor, element.anchor) : 'element';
  const anchor = precision === 'exact' && ref.anchor ? ref.anchor : element.anchor;
  let view: ResolvedCitation['view'];
  let quote = element.text;
  if (anchor.kind === 'page') {
    view = await pageView(ports, version, anchor);
    quote = textUnderBoxes(element, anchor.boxes);
  } else if (anchor.kind === 'text') {
    const raw = storedRaw(element, anchor);
    const { raw: _sent, ...rest } = anchor;
    view = await textView(ports, version, raw ? { ...rest, raw } : rest);
    quote = sliceCodepoints(view.text, anchor.start, anchor.end);
  } else {
    view = await recordView(ports, version, anchor);
    // a cell of the record: its own text, not the row's
    const cell = anchor.cell_range ? element.cells?.find((c) => c.ref === anchor.cell_range) : undefined;
    if (cell) quote = sliceCodepoints(element.text, cell.start, cell.end);
  }
  return { version, newer_version_id: await newerVersionId(ports, version), element, precision, quote, view };
}
