import type { Box, PageAnchor, PageInfo } from '@pinpoint/core';

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
