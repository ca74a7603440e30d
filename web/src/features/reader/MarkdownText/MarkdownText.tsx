import { createElement, type ReactNode, type RefObject, useMemo } from 'react';
import type { MdNode } from '../markdownTree.js';
import { markdownTree } from '../markdownTree.js';
import styles from './MarkdownText.module.css';

interface RenderState {
  markClass: string;
  firstMark: RefObject<HTMLElement | null>;
  marked: boolean;
}

function render(node: MdNode, key: string, state: RenderState): ReactNode {
  if (node.kind === 'text') {
    if (!node.marked) return node.text;
    const ref = state.marked ? undefined : state.firstMark;
    state.marked = true;
    return (
      <mark key={key} ref={ref} className={state.markClass} data-testid="text-mark" data-start={node.start} data-end={node.end}>
        {node.text}
      </mark>
    );
  }
  const children = node.children.map((c, i) => render(c, `${key}.${i}`, state));
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
  markClass,
}: {
  source: string;
  range: { start: number; end: number } | null;
  firstMark: RefObject<HTMLElement | null>;
  /** The reader's highlight style, the same as plain text's. */
  markClass: string;
}) {
  const start = range?.start;
  const end = range?.end;
  const tree = useMemo(
    () => markdownTree(source, start === undefined || end === undefined ? null : { start, end }),
    [source, start, end],
  );
  return <div className={styles.markdown}>{render(tree, 'md', { markClass, firstMark, marked: false })}</div>;
}
