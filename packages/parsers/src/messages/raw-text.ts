/**
 * Marks of a library's or runtime's own text in a message meant for users: exception names and
 * phrasings, parser internals, stack frames, stray `undefined`/`NaN`. A failure message must be our
 * own sentence; these belong in the error's detail (log, admin diagnostics) only.
 */
const rawTextPatterns: readonly RegExp[] = [
  /Maximum call stack/i,
  /xmldom/i,
  /Cannot read propert/i,
  /Cannot set propert/i,
  /\bBug ?:/,
  /Unsupported ZIP/i,
  /\bundefined\b/,
  /\bNaN\b/,
  /\[object \w+\]/,
  /\b(Type|Range|Syntax|Reference|Internal|Eval|URI)Error\b/,
  /\bError:/,
  /is not a function|is not defined|is not iterable/,
  /Unexpected (token|end of)|JSON at position/i,
  /invalid (distance|stored block|block type|code lengths|literal|bit length)/i,
  /incorrect header check|unexpected end of file|Z_[A-Z_]+_ERROR/i,
  /\bERR_[A-Z_]{3,}\b|\bE(NOENT|ACCES|PIPE|CONNRESET)\b/,
  /@#\[line:/,
  /\n\s+at\s|\bat \S+ \(.*:\d+:\d+\)|\.(m?js|cjs|ts):\d+/,
  /[\u0000-\u0008\u000b-\u001f\t]/,
];

/** The first raw-exception mark found in a user-facing message, or undefined when it reads as ours. */
export function rawTextIn(message: string): string | undefined {
  for (const pattern of rawTextPatterns) {
    const hit = pattern.exec(message);
    if (hit) return hit[0];
  }
  return undefined;
}
