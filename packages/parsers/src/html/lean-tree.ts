import type { DefaultTreeAdapterMap, DefaultTreeAdapterTypes, Token, TreeAdapter } from 'parse5';
import { defaultTreeAdapter } from 'parse5';

type Location = NonNullable<DefaultTreeAdapterTypes.Element['sourceCodeLocation']>;
type Node = DefaultTreeAdapterTypes.Node;

/**
 * The only location facts the block walker reads, in one object per node: the full records
 * (line, column, per attribute, start and end tag objects) were most of a tree's memory on a large
 * minified page.
 */
interface LeanLocation {
  startOffset: number;
  endOffset: number;
  /** End of the start tag (elements), -1 when unknown. */
  startTagEnd: number;
  /** Set once an end tag closed the element: parse5 reads it (a </body> seen keeps </html> out of the body). */
  endTag: object | undefined;
}

/** The one value `endTag` takes: parse5 only asks whether it is there. */
const SEEN = Object.freeze({});

/** Where an element's start tag ends in the source, when the tree was built by `leanTreeAdapter`. */
export function startTagEnd(location: Location): number | undefined {
  const end = (location as unknown as LeanLocation).startTagEnd;
  return end === undefined || end < 0 ? undefined : end;
}

/** The attributes the block walker reads (visibility, table spans); the rest are not kept. */
const readAttributes = new Set(['hidden', 'aria-hidden', 'type', 'style', 'colspan', 'rowspan']);

/** Elements whose content the walker never reads (script, style, embedded objects): emptied once closed. */
const unread = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas']);

/** A class the page's stylesheet hides: MediaWiki's sortable tables put each cell's sort key ("Plushenko, Evgeni") in one. */
export const HIDDEN_CLASS = /(?:^|\s)sortkey(?:\s|$)/;

function keptAttributes(attrs: Token.Attribute[]): Token.Attribute[] {
  // a class is kept only when it hides the element, so a page's many classes cost nothing
  return attrs.filter((a) => readAttributes.has(a.name) || (a.name === 'class' && HIDDEN_CLASS.test(a.value)));
}

/**
 * parse5's default tree, slimmed while it is built: only the attributes and source offsets the
 * block walker reads; when an element closes, its text children are flattened (the tokenizer
 * appends runs, leaving each text a rope of many small strings), its child list is trimmed to its
 * length, and the content of elements the walker skips is dropped. A dense one-line page costs
 * about a third of the default tree.
 */
export const leanTreeAdapter: TreeAdapter<DefaultTreeAdapterMap> = {
  ...defaultTreeAdapter,
  createElement(tagName, namespaceURI, attrs) {
    return defaultTreeAdapter.createElement(tagName, namespaceURI, keptAttributes(attrs));
  },
  adoptAttributes(recipient, attrs) {
    defaultTreeAdapter.adoptAttributes(recipient, keptAttributes(attrs));
  },
  setNodeSourceCodeLocation(node, location) {
    if (!location) {
      node.sourceCodeLocation = location;
      return;
    }
    const lean: LeanLocation = {
      startOffset: location.startOffset,
      endOffset: location.endOffset,
      startTagEnd: (location as Partial<Location>).startTag?.endOffset ?? -1,
      endTag: (location as Partial<Location>).endTag ? SEEN : undefined,
    };
    node.sourceCodeLocation = lean as unknown as Location;
  },
  updateNodeSourceCodeLocation(node, endLocation) {
    const location = node.sourceCodeLocation as unknown as LeanLocation | undefined;
    if (!location) return;
    if (endLocation.endOffset !== undefined) location.endOffset = endLocation.endOffset;
    if (endLocation.endTag) location.endTag = SEEN;
  },
  onItemPop(node) {
    if (unread.has(node.tagName)) {
      node.childNodes.length = 0;
      return;
    }
    for (const child of node.childNodes as Node[]) {
      // reading a character flattens the rope in place, freeing its pieces
      if (child.nodeName === '#text' && 'value' in child) child.value.charCodeAt(0);
    }
    node.childNodes = node.childNodes.slice();
  },
};
