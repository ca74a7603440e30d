/** Elements that never hold children, or whose end tag HTML lets authors leave out: not counted as nesting. */
const flat = new Set(
  'area base br col embed hr img input link meta source track wbr p li dt dd tr td th thead tbody tfoot option optgroup rb rt rp colgroup caption'.split(
    ' ',
  ),
);

/**
 * Whether HTML opens elements more than `max` levels deep, by a scan of its tags (no tree): a page
 * nested 200,000 deep costs the tree builder quadratic time and its walk the call stack.
 */
export function htmlDepthExceeds(source: string, max: number): boolean {
  let depth = 0;
  for (const tag of source.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>/g)) {
    if (flat.has((tag[2] as string).toLowerCase())) continue;
    if (tag[1]) depth = Math.max(0, depth - 1);
    else if (!tag[3] && ++depth > max) return true;
  }
  return false;
}
