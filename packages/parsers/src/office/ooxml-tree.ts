/** An element of an Office Open XML part: qualified name, attributes, children and its own text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_m, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref] ?? '';
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

const TOKEN =
  /<(\/?)([\w.:-]+)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<[!?][\s\S]*?>|([^<]+)/g;
const ATTR = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Reads an OOXML part (already checked for depth and stray declarations by the zip guard) into a
 * tree of elements: tags, attributes and text only — no DTD, no external entities, nothing run.
 * Malformed markup is skipped rather than repaired.
 */
export function readXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const top = stack.at(-1) as XmlElement;
    const [, close, name, attrText, selfClose, cdata, text] = m;
    if (text !== undefined) top.text += decode(text);
    else if (cdata !== undefined) top.text += cdata;
    else if (name === undefined) continue;
    else if (close) {
      let at = stack.length - 1;
      while (at > 0 && (stack[at] as XmlElement).name !== name) at--;
      if (at > 0) stack.length = at;
    } else {
      const attrs: Record<string, string> = {};
      for (const a of (attrText ?? '').matchAll(ATTR)) attrs[a[1] as string] = decode(a[2] ?? a[3] ?? '');
      const el: XmlElement = { name, attrs, children: [], text: '' };
      top.children.push(el);
      if (!selfClose) stack.push(el);
    }
  }
  return root;
}

/** Direct children named `name`. */
export const childrenNamed = (el: XmlElement | undefined, name: string): XmlElement[] =>
  el ? el.children.filter((c) => c.name === name) : [];

/** The first direct child named `name`. */
export const childNamed = (el: XmlElement | undefined, name: string): XmlElement | undefined =>
  el?.children.find((c) => c.name === name);

/** The first descendant (depth first) named `name`. */
export function descendant(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) {
    if (c.name === name) return c;
    const found = descendant(c, name);
    if (found) return found;
  }
  return undefined;
}
