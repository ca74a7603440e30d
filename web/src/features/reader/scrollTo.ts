/**
 * Centres `target` inside its scrolling `container` without scrolling the window, so the reader's
 * header (title, precision, version notice) stays in view.
 */
export function scrollIntoContainer(container: HTMLElement | null, target: HTMLElement | null): void {
  if (!container || !target) return;
  const c = container.getBoundingClientRect();
  const t = target.getBoundingClientRect();
  container.scrollTop += t.top - c.top - Math.max(0, (c.height - t.height) / 2);
  container.scrollLeft += t.left - c.left - Math.max(0, (c.width - t.width) / 2);
}

/**
 * Brings a cited table row into view with its table's top (caption, header rows) when both fit in
 * the container; a row further down is centred as any target is.
 */
export function scrollToTableRow(container: HTMLElement | null, row: HTMLElement | null): void {
  const table = row?.closest('table');
  if (container && row && table) {
    const c = container.getBoundingClientRect();
    const top = table.getBoundingClientRect().top;
    if (row.getBoundingClientRect().bottom - top <= c.height) {
      container.scrollTop += top - c.top;
      return;
    }
  }
  scrollIntoContainer(container, row);
}
