/** The quote split around the first occurrence of the marked answer (whole quote when absent). */
export function markedParts(quote: string, mark: string | undefined): { text: string; marked: boolean }[] {
  const at = mark ? quote.indexOf(mark) : -1;
  if (!mark || at < 0) return [{ text: quote, marked: false }];
  return [
    { text: quote.slice(0, at), marked: false },
    { text: mark, marked: true },
    { text: quote.slice(at + mark.length), marked: false },
  ].filter((p) => p.text.length > 0);
}
