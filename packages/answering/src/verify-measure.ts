import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { splitSentences } from '@pinpoint/analysis';
import { sliceCodepoints } from '@pinpoint/core';
import { verifyAnswer } from './verify.js';

/**
 * Measures citation verification on an eval set (DESIGN §6 questions.jsonl): each answerable
 * question's gold paragraph is the cited source; supported sentences are the paragraph's
 * answer-bearing sentence, the clause around the answer, and a templated "question + answer" sentence; injected unsupported ones
 * are an answer sentence from another document, one from another paragraph of the same document,
 * the supported sentence with its answer swapped for another question's answer, and with a number changed. Run: npx tsx packages/answering/src/verify-measure.ts DIR…
 */
interface Question {
  question: string;
  answerable: boolean;
  answers: string[];
  gold: { file: string; quote?: string }[];
}

interface Item {
  source: string;
  sentence: string;
  unsupported: boolean;
  kind: string;
}

export interface VerifyMeasurement {
  threshold: number;
  precision: number;
  recall: number;
  /** Share of supported sentences wrongly flagged. */
  false_alarm: number;
  byKind: Record<string, number>;
}

function answerSentence(paragraph: string, answer: string): string | undefined {
  for (const r of splitSentences(paragraph)) {
    const s = sliceCodepoints(paragraph, r.start, r.end).trim();
    if (s.includes(answer)) return s;
  }
  return undefined;
}

/** A concise answer: the answer with a few words (or CJK characters) of its sentence on each side. */
function clauseAround(sentence: string, answer: string): string {
  const at = sentence.indexOf(answer);
  if (/[\u3040-\u30ff\u3400-\u9fff]/u.test(answer + sentence.slice(Math.max(0, at - 2), at))) {
    return `${sentence.slice(Math.max(0, at - 15), at + answer.length + 15)}。`;
  }
  const before = sentence.slice(0, at).split(/\s+/).slice(-6).join(' ');
  const after = sentence
    .slice(at + answer.length)
    .split(/\s+/)
    .slice(0, 7)
    .join(' ');
  return `${before}${answer}${after}`.replace(/[.,;:]*$/, '.');
}

function changeNumber(sentence: string): string | undefined {
  const m = sentence.match(/\d+/);
  if (!m || m.index === undefined) return undefined;
  const changed = String(Number(m[0]) + 7);
  return sentence.slice(0, m.index) + changed + sentence.slice(m.index + m[0].length);
}

export async function verificationItems(dir: string): Promise<Item[]> {
  const lines = (await readFile(new URL('questions.jsonl', pathToFileURL(`${dir}/`)), 'utf8')).split('\n').filter(Boolean);
  const qs = lines.map((l) => JSON.parse(l) as Question).filter((q) => q.answerable && q.answers[0] && q.gold[0]?.quote);
  const withSentence = qs.flatMap((q) => {
    const quote = q.gold[0]?.quote as string;
    const sentence = answerSentence(quote, q.answers[0] as string);
    return sentence ? [{ q, quote, file: q.gold[0]?.file as string, sentence }] : [];
  });
  const items: Item[] = [];
  for (const [i, x] of withSentence.entries()) {
    const otherDoc = withSentence.find((y, j) => j > i && y.file !== x.file) ?? withSentence.find((y) => y.file !== x.file);
    const sameDoc = withSentence.find((y) => y.file === x.file && y.quote !== x.quote && !x.quote.includes(y.sentence));
    const templated = `${x.q.question.replace(/[?？]\s*$/u, '')} ${x.q.answers[0]}.`;
    items.push({ source: x.quote, sentence: x.sentence, unsupported: false, kind: 'verbatim' });
    items.push({ source: x.quote, sentence: templated, unsupported: false, kind: 'templated' });
    items.push({
      source: x.quote,
      sentence: clauseAround(x.sentence, x.q.answers[0] as string),
      unsupported: false,
      kind: 'clause',
    });
    if (otherDoc) items.push({ source: x.quote, sentence: otherDoc.sentence, unsupported: true, kind: 'other-document' });
    if (sameDoc) items.push({ source: x.quote, sentence: sameDoc.sentence, unsupported: true, kind: 'same-document' });
    const swap = otherDoc?.q.answers[0];
    if (swap && !x.quote.includes(swap))
      items.push({
        source: x.quote,
        sentence: x.sentence.replace(x.q.answers[0] as string, swap),
        unsupported: true,
        kind: 'swapped-answer',
      });
    const changed = changeNumber(x.sentence);
    if (changed) items.push({ source: x.quote, sentence: changed, unsupported: true, kind: 'changed-number' });
  }
  return items;
}

/** Scores every item once, then sweeps the lexical threshold. */
export async function measureVerification(items: Item[], thresholds: number[]): Promise<VerifyMeasurement[]> {
  const scored = await Promise.all(
    items.map(async (it) => {
      const [s] = await verifyAnswer(`${it.sentence} [1]`, () => it.source, { minLexical: 0 });
      return { ...it, lexical: s?.lexical ?? 0, numbers: (s?.missing.length ?? 0) > 0 };
    }),
  );
  return thresholds.map((threshold) => {
    const flagged = (x: (typeof scored)[number]) => x.numbers || x.lexical < threshold;
    const tp = scored.filter((x) => x.unsupported && flagged(x)).length;
    const fp = scored.filter((x) => !x.unsupported && flagged(x)).length;
    const negatives = scored.filter((x) => x.unsupported).length;
    const positives = scored.length - negatives;
    const kinds = [...new Set(scored.map((x) => x.kind))];
    const byKind = Object.fromEntries(
      kinds.map((k) => [
        k,
        scored.filter((x) => x.kind === k && flagged(x)).length / Math.max(1, scored.filter((x) => x.kind === k).length),
      ]),
    );
    return {
      threshold,
      precision: tp / Math.max(1, tp + fp),
      recall: tp / Math.max(1, negatives),
      false_alarm: fp / Math.max(1, positives),
      byKind,
    };
  });
}

async function main(dirs: string[]): Promise<void> {
  const thresholds = [0.3, 0.4, 0.5, 0.6];
  for (const dir of dirs) {
    const items = await verificationItems(dir);
    console.log(`\n${dir} (${items.length} sentences)`);
    console.log('| min lexical | precision | recall | false alarms | flagged by kind |');
    console.log('|---|---|---|---|---|');
    for (const m of await measureVerification(items, thresholds)) {
      const kinds = Object.entries(m.byKind)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ');
      console.log(
        `| ${m.threshold} | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} | ${m.false_alarm.toFixed(3)} | ${kinds} |`,
      );
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
