import type { Box, Element, Format, PageAnchor, PageInfo, SourceMap } from '@pinpoint/core';
import { SOURCE_MAP_SCHEMA_VERSION } from '@pinpoint/core';

/** A page anchor on one page of a PDF (the original, or a converted document's): the boxes given, in points. */
export function pageAnchorOf(info: PageInfo, boxes: Box[]): PageAnchor {
  const anchor: PageAnchor = {
    kind: 'page',
    artifact: info.artifact,
    page_index: info.page_index,
    page_width: info.width,
    page_height: info.height,
    unit: 'pt',
    rotation: info.rotation,
    boxes,
  };
  if (info.page_label) anchor.page_label = info.page_label;
  return anchor;
}

/** The source map of a paged format (PDF, images, TIFF): its pages and their elements, page anchors all. */
export function pagedSourceMap(format: Format, pages: PageInfo[], elements: Element[]): SourceMap {
  return { schemaVersion: SOURCE_MAP_SCHEMA_VERSION, format, anchor_kind: 'page', pages, elements };
}
