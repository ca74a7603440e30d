import { CodepointIndex } from '@pinpoint/core/codepoints';

/** A half-open range in UTF-16 code units: what DOM strings and String.prototype.slice index. */
export interface Utf16Range {
  start: number;
  end: number;
}

/** The text split around the cited range, ready to render as before / <mark> / after. */
export interface HighlightParts {
  before: string;
  marked: string;
  after: string;
  /** The range in UTF-16 units, for tests and for selection APIs. */
  range: Utf16Range;
}

/**
 * The one conversion from API codepoint offsets to DOM (UTF-16) offsets. Throws on a range that
 * does not fit the text: a citation that cannot be placed is an error, never a nearby guess.
 */
export function codepointRangeToUtf16(text: string, start: number, end: number): Utf16Range {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid codepoint range [${start}, ${end})`);
  }
  const index = new CodepointIndex(text);
  if (end > index.length) throw new RangeError(`codepoint range [${start}, ${end}) outside text of ${index.length} codepoints`);
  return { start: index.toUtf16(start), end: index.toUtf16(end) };
}

/** Splits `text` around the codepoint range [start, end). */
export function splitAtCodepoints(text: string, start: number, end: number): HighlightParts {
  const range = codepointRangeToUtf16(text, start, end);
  return {
    before: text.slice(0, range.start),
    marked: text.slice(range.start, range.end),
    after: text.slice(range.end),
    range,
  };
}

/** 1-based line number of a UTF-16 offset, for the "where in the source" gutter. */
export function lineOfOffset(text: string, utf16Offset: number): number {
  let line = 1;
  for (let i = 0; i < utf16Offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
