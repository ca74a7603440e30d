import { entryData, inflateEntry } from './zip-entries.js';
import { readZipDirectory } from './zip-guard.js';

const CORE_PROPERTIES = 'docProps/core.xml';
/** core.xml is a few hundred bytes; a larger one is not read for a title. */
const MAX_CORE_BYTES = 64 * 1024;

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    if (e[0] !== '#') return XML_ENTITIES[e.toLowerCase()] ?? '';
    const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * The title an Office Open XML file declares in its core properties (`dc:title` of
 * docProps/core.xml), or undefined. Never throws: a missing or damaged part is no title.
 */
export function officeTitle(bytes: Uint8Array): string | undefined {
  try {
    const entry = readZipDirectory(bytes).records.find((r) => r.name === CORE_PROPERTIES);
    if (!entry || entry.uncompressedSize > MAX_CORE_BYTES) return undefined;
    const xml = new TextDecoder().decode(inflateEntry(entryData(bytes, entry, 'document'), entry, 'document'));
    const title = /<dc:title>([\s\S]*?)<\/dc:title>/.exec(xml)?.[1];
    const text = title === undefined ? '' : unescapeXml(title).replace(/\s+/g, ' ').trim();
    return text.length > 0 ? text : undefined;
  } catch {
    return undefined;
  }
}
