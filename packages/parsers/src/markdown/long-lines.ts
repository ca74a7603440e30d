/** Lines longer than this are masked before block parsing. */
export const LONG_LINE = 10_000;
/** Characters kept as they are at each end of a masked line: its block markers and closing syntax. */
const KEEP = 256;

/**
 * The text remark parses when some lines are very long: the middle of each such line becomes plain
 * letters (pipes stay, for table rows), one UTF-16 unit for one, so every offset of the parse tree
 * still points into the real text. Block structure comes from a line's ends; the inline markup of a
 * multi-megabyte line is what made the parse take minutes and a gigabyte, and only block ranges are
 * used (element text is always sliced from the real text).
 */
export function maskLongLines(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const [lineStart, lineEnd] of lines(text)) {
    if (lineEnd - lineStart < LONG_LINE) continue;
    const start = lineStart + KEEP;
    const end = lineEnd - KEEP;
    const letters = text
      .slice(start, end)
      .split('|')
      .map((run) => 'a'.repeat(run.length));
    parts.push(text.slice(from, start), letters.join('|'));
    from = end;
  }
  if (from === 0) return text;
  parts.push(text.slice(from));
  return parts.join('');
}

/** [start, end) of every line (\n, \r or \r\n separated), without building the lines. */
function* lines(text: string): Generator<[number, number]> {
  let n = text.indexOf('\n');
  let r = text.indexOf('\r');
  for (let start = 0; start <= text.length; ) {
    if (n !== -1 && n < start) n = text.indexOf('\n', start);
    if (r !== -1 && r < start) r = text.indexOf('\r', start);
    const end = n === -1 ? (r === -1 ? text.length : r) : r === -1 ? n : Math.min(n, r);
    yield [start, end];
    start = end + 1;
  }
}
