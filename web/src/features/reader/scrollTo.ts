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
