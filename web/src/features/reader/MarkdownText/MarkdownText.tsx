import { createElement, type ReactNode, type RefObject, useMemo } from 'react';
import type { MdNode } from '../markdownTree.js';
import { markdownTree } from '../markdownTree.js';
import styles from './MarkdownText.module.css';

function render(node: MdNode, key: string, firstMark: RefObject<HTMLElement | null>, state: { marked: boolean }): ReactNode {
  if (node.kind === 'text') {
    if (!node.marked) return node.text;
    const ref = state.marked ? undefined : firstMark;
    state.marked = true;
    return (
      <mark key={key} ref={ref} className={styles.mark} data-testid="text-mark" data-start={node.start} data-end={node.end}>
        {node.text}
      </mark>
    );
  }
  const children = node.children.map((c, i) => render(c, `${key}.${i}`, firstMark, state));
  const props: Record<string, unknown> = { key };
  if (node.tag === 'a') Object.assign(props, { href: node.href, target: '_blank', rel: 'noopener noreferrer' });
  if (node.listStart !== undefined) props.start = node.listStart;
  return createElement(node.tag, props, ...(node.tag === 'hr' || node.tag === 'br' ? [] : children));
}

/**
 * Markdown source rendered (remark), with the cited codepoint range marked exactly: each <mark>
 * carries the source offsets it shows. Throws, like splitAtCodepoints, on a range that does not fit.
 */
export function MarkdownText({
  source,
  range,
  firstMark,
}: {
  source: string;
  range: { start: number; end: number } | null;
  firstMark: RefObject<HTMLElement | null>;
}) {
  const start = range?.start;
  const end = range?.end;
  const tree = useMemo(
    () => markdownTree(source, start === undefined || end === undefined ? null : { start, end }),
    [source, start, end],
  );
  return <div className={styles.markdown}>{render(tree, 'md', firstMark, { marked: false })}</div>;
}
