import type { DefaultTreeAdapterMap, DefaultTreeAdapterTypes, TreeAdapter } from 'parse5';
import { defaultTreeAdapter } from 'parse5';

type Location = NonNullable<DefaultTreeAdapterTypes.Element['sourceCodeLocation']>;

/**
 * parse5's default tree with only the source offsets the block walker reads (start, end, end of
 * the start tag, and whether an end tag was seen): the full location records (line, column, per
 * attribute, per tag) are most of a tree's memory on a large minified page.
 */
function lean(location: Partial<Location>): Location {
  const out = {
    startOffset: location.startOffset ?? 0,
    endOffset: location.endOffset ?? 0,
    startTag: location.startTag ? { endOffset: location.startTag.endOffset } : undefined,
    endTag: location.endTag ? { endOffset: location.endTag.endOffset } : undefined,
  };
  return out as unknown as Location;
}

export const leanTreeAdapter: TreeAdapter<DefaultTreeAdapterMap> = {
  ...defaultTreeAdapter,
  setNodeSourceCodeLocation(node, location) {
    node.sourceCodeLocation = location ? lean(location) : location;
  },
  updateNodeSourceCodeLocation(node, endLocation) {
    const location = node.sourceCodeLocation;
    if (!location) return;
    if (endLocation.endOffset !== undefined) location.endOffset = endLocation.endOffset;
    if (endLocation.endTag) (location as { endTag?: unknown }).endTag = { endOffset: endLocation.endTag.endOffset };
  },
};
