import type { OcrLine, TextSpan } from '@pinpoint/core';
import { codepointLength } from '@pinpoint/core';

/** Word runs of a line: codepoint ranges into the line text (words joined as joinWords does) with their boxes. */
export function wordSpans(line: OcrLine): TextSpan[] {
  const spans: TextSpan[] = [];
  let from = 0;
  for (const word of line.words) {
    const at = line.text.indexOf(word.text, from);
    if (at < 0) continue;
    const start = codepointLength(line.text.slice(0, at));
    spans.push({ start, end: start + codepointLength(word.text), box: word.box });
    from = at + word.text.length;
  }
  return spans;
}
