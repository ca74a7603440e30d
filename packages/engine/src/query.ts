import { analyze } from '@pinpoint/analysis';
import type { RankedChunk, ReportFigureAnswer } from '@pinpoint/answering';
import {
  answerExtractive,
  DEFAULT_TABLE_OPTIONS,
  generateFigure,
  itemText,
  planFigure,
  refusalMessage,
  streamGeneratedAnswer,
  streamTableAnswer,
} from '@pinpoint/answering';
import type {
  Answer,
  Chunk,
  Citation,
  Element,
  MetadataStore,
  Retrieved,
  SearchFilter,
  SearchResponse,
  Version,
} from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { searchLexical } from '@pinpoint/retrieval';
import { satisfiedWords, scopeAsk } from './ask-scope.js';
import type { EngineConfig, EnginePorts } from './config.js';
import { withFinanceExpansion } from './finance-expansion.js';
import {
  generatedFields,
  mergePartAnswers,
  paraphraseHits,
  rerankStaged,
  rewriteFor,
  stagedCandidates,
  startDense,
} from './hybrid.js';
import type { QueryOptions } from './query-options.js';
import { readableScope } from './query-options.js';
import { askReportFigure } from './report-figure.js';
import { rowHitsOf } from './row-hits.js';
import type { Candidate, RowHit } from './table-answer.js';
import { answerTableQuestion } from './table-answer.js';

export type { QueryFilters, QueryOptions } from './query-options.js';

/** Candidates of a question that are loaded: the reranker's head (20) covers the retrieved list (10) and the answer's chunks. */
const ANSWER_HEAD = 20;
/** Candidates loaded for a question: table rows name their table from further down the list. */
const TABLE_CANDIDATES = 50;

const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100;

/** Search sees the newest ready version of each document unless versions are named. */
async function searchFilter(metadata: MetadataStore, options: QueryOptions): Promise<SearchFilter> {
  const f = options.filters ?? {};
  const scope = readableScope(options);
  const versionIds = f.version_ids?.length
    ? f.version_ids
    : scope
      ? (await Promise.all(scope.map((c) => metadata.latestReadyVersionIds(c)))).flat()
      : await metadata.latestReadyVersionIds();
  return {
    versionIds,
    ...(scope ? { collectionIds: scope } : {}),
    ...(f.document_ids?.length ? { documentIds: f.document_ids } : {}),
    ...(f.page_indexes?.length ? { pageIndexes: f.page_indexes } : {}),
  };
}

function pageLabel(elements: Element[], chunk: Chunk): string | undefined {
  const first = elements.find((e) => e.element_id === chunk.elements[0]?.element_id);
  return first?.anchor.kind === 'page' ? first.anchor.page_label : undefined;
}

interface Retrieval {
  candidates: Candidate[];
  queryTerms: { term: string; weight: number }[];
  /** What the query searched (versions, collections): a wider search for the question's tables uses the same. */
  filter?: SearchFilter;
}

async function retrieve(
  ports: EnginePorts,
  query: string,
  options: QueryOptions,
  sides: { k: number; lexical?: boolean | undefined },
  timings: Record<string, number>,
  paraphrases: string[] = [],
  keep = Number.POSITIVE_INFINITY,
): Promise<Retrieval> {
  const filter = await searchFilter(ports.metadata, options);
  if (filter.versionIds?.length === 0) return { candidates: [], queryTerms: [] };
  const k = sides.k;
  const dense = await startDense(ports, query, { k, filter }, timings);
  const t0 = performance.now();
  const result = await searchLexical(ports.lexical, query, { k, filter });
  const expanded = await withFinanceExpansion(ports.lexical, query, result.hits, { k, filter });
  timings.lexical = ms(t0);
  // Dense-only retrieval still asks the lexical index for the query's term weights (the gate reads them).
  const lexicalHits = sides.lexical === false && ports.embedder && ports.vectors ? [] : expanded;
  const lexicalSearch = async (q: string) => (await searchLexical(ports.lexical, q, { k, filter })).hits;
  const extra = await paraphraseHits(ports, paraphrases, lexicalSearch, { k, filter });
  // Only the head is ever shown, reranked or answered from: load just those chunks.
  let staged = (await stagedCandidates(ports, lexicalHits, dense, extra)).slice(0, keep);
  const t1 = performance.now();
  const chunks = new Map((await ports.metadata.getChunks(staged.map((h) => h.chunk_id))).map((c) => [c.chunk_id, c]));
  staged = await rerankStaged(ports, query, staged, (id) => chunks.get(id)?.text, timings);
  const versions = new Map<string, Version>();
  const out: Candidate[] = [];
  for (const h of staged) {
    const chunk = chunks.get(h.chunk_id);
    if (!chunk) continue;
    let version = versions.get(chunk.version_id);
    if (!version) {
      const v = await ports.metadata.getVersion(chunk.version_id);
      if (!v) continue;
      versions.set(v.version_id, v);
      version = v;
    }
    const hit: Retrieved = {
      rank: out.length + 1,
      chunk_id: chunk.chunk_id,
      document_id: chunk.document_id,
      version_id: chunk.version_id,
      file: version.original_name,
      ...(chunk.page_index !== undefined ? { page_index: chunk.page_index } : {}),
      section_path: chunk.section_path,
      text: chunk.text,
      scores: h.scores,
      ranks: h.ranks,
    };
    out.push({ hit, chunk, version });
  }
  timings.load = ms(t1);
  return { candidates: out, queryTerms: result.query_terms, filter };
}

export async function search(
  ports: EnginePorts,
  config: EngineConfig,
  query: string,
  options: QueryOptions = {},
): Promise<SearchResponse> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const { candidates: found } = await retrieve(
    ports,
    query,
    options,
    { k: options.k ?? config.retrieval.k, lexical: config.retrieval.lexical },
    timings,
  );
  const top = found.slice(0, options.k ?? 10);
  // each hit's first element, where its passage starts: one read per version, not per hit
  const firsts = new Map<string, string[]>();
  for (const c of top) {
    const first = c.chunk.elements[0]?.element_id;
    if (first) firsts.set(c.chunk.version_id, [...(firsts.get(c.chunk.version_id) ?? []), first]);
  }
  const starts = new Map<string, Element>();
  for (const [versionId, ids] of firsts) {
    for (const e of await ports.metadata.getElements(versionId, ids)) starts.set(`${versionId}\u0000${e.element_id}`, e);
  }
  const hits = top.map((c): Retrieved => {
    const element = starts.get(`${c.chunk.version_id}\u0000${c.chunk.elements[0]?.element_id}`);
    return element ? { ...c.hit, start: { element_id: element.element_id, anchor: element.anchor } } : c.hit;
  });
  timings.total_ms = ms(t0);
  return { query, hits, timings };
}

/**
 * The lexical evidence of a chunk for the gate: its BM25 score when the lexical side found it, else
 * the weight of the query terms its own text contains — so a chunk only the dense side found is
 * judged on its text, not read as zero evidence.
 */
function lexicalEvidence(c: Candidate, queryTerms: { term: string; weight: number }[]): number {
  if (c.hit.scores.lexical !== undefined) return c.hit.scores.lexical;
  const terms = new Set(analyze(c.chunk.text));
  return queryTerms.reduce((sum, q) => (terms.has(q.term) ? sum + q.weight : sum), 0);
}

async function ranked(
  metadata: MetadataStore,
  candidates: Candidate[],
  queryTerms: { term: string; weight: number }[],
): Promise<RankedChunk[]> {
  const out: RankedChunk[] = [];
  for (const c of candidates) {
    const elements = await metadata.getElements(
      c.chunk.version_id,
      c.chunk.elements.map((e) => e.element_id),
    );
    const label = pageLabel(elements, c.chunk);
    if (label !== undefined) c.hit.page_label = label;
    out.push({
      chunk: c.chunk,
      elements,
      file: c.version.original_name,
      rank: c.hit.rank,
      score: lexicalEvidence(c, queryTerms),
      ...(label !== undefined ? { page_label: label } : {}),
    });
  }
  return out;
}

/** Lexical hits searched for a table question's candidate tables (the answer list keeps its own k). */
const TABLE_WIDE_K = 200;
/** Lexical hits searched for each line item a figure question names. */
const FIGURE_ITEM_K = 30;

/**
 * A wider lexical list of the question, as row hits: a question need not name its table, whose rows
 * may rank low. Searched only when the table path reads it (a question led by a page's row never
 * does, and a search to 200 costs 40 % more than to k); never narrower than the question's own k.
 */
async function widerRows(
  ports: EnginePorts,
  question: string,
  filter: SearchFilter,
  k: number,
  found: Candidate[],
): Promise<RowHit[]> {
  // a figure question's line items are searched on their own first: the words of its operation
  // ("percentage change") rank the tables that print a change column, not the item's row
  const plan = planFigure(question);
  const items = plan ? [...new Set(plan.items.map((i) => itemText(plan, i)))] : [];
  const lists = await Promise.all([
    ...items.map((item) => searchLexical(ports.lexical, item, { k: FIGURE_ITEM_K, filter })),
    searchLexical(ports.lexical, question, { k: Math.max(TABLE_WIDE_K, k), filter }),
  ]);
  const seen = new Set<string>();
  const hits = lists
    .flatMap((l) => l.hits)
    .filter((h) => !seen.has(h.chunk_id) && seen.add(h.chunk_id))
    .map((h, i) => ({ ...h, rank: i + 1 }));
  // the candidates' chunks and files are loaded already: only the rest of the list is read
  return rowHitsOf(ports.metadata, hits, {
    chunks: new Map(found.map((c) => [c.chunk.chunk_id, c.chunk])),
    files: new Map(found.map((c) => [c.version.version_id, c.version.original_name])),
  });
}

/**
 * Events of a streamed ask (SSE: one event per item, named by `type`): `retrieved` first, then —
 * with a generator — `delta` text (citation markers already renumbered) and `citation` at each
 * source's first use, and always a final `answer` (authoritative; a refusal carries no sources).
 */
export type AskEvent =
  | { type: 'retrieved'; retrieved: Retrieved[] }
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Citation }
  | { type: 'answer'; answer: Answer };

/**
 * The question pipeline of DESIGN.md §5: lexical (∪ dense, fused) candidates → rerank → gate →
 * extractive answer with exact citations, or — with a generator — a generated, post-checked and
 * verified answer, streamed.
 */
export async function* askStream(
  ports: EnginePorts,
  config: EngineConfig,
  question: string,
  options: QueryOptions = {},
): AsyncGenerator<AskEvent> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const rewrite = await rewriteFor(ports, config.retrieval.rewrite, question, timings);
  const ts = performance.now();
  const { options: scoped, scope } = await scopeAsk(ports.metadata, question, options);
  timings.scope = ms(ts);
  const scoping = scope ? { scope } : {};
  if (ports.generator && rewrite.parts.length > 1) {
    yield* askParts(ports, config, question, rewrite.parts, scoped, { t0, timings });
    return;
  }
  const k = config.retrieval.k;
  const keep = Math.max(ANSWER_HEAD, config.retrieval.answerChunks);
  const {
    candidates: found,
    queryTerms,
    filter,
  } = await retrieve(
    ports,
    question,
    scoped,
    { k, lexical: config.retrieval.lexical },
    timings,
    rewrite.paraphrases,
    Math.max(keep, TABLE_CANDIDATES),
  );
  const tf = performance.now();
  // a figure asked of the report the question names: its line items read from their tables and computed
  const figure = scope && filter ? await askReportFigure(ports, question, filter) : undefined;
  timings.figure = ms(tf);
  if (figure) {
    const retrieved = found.slice(0, 10).map((c) => c.hit);
    yield { type: 'retrieved', retrieved };
    const answer = await inModelWords(ports, question, figureAnswer(question, figure, scoping, retrieved, timings), timings);
    timings.total_ms = ms(t0);
    yield { type: 'answer', answer };
    return;
  }
  const tt = performance.now();
  const wider = filter ? () => widerRows(ports, question, filter, k, found) : undefined;
  const table = await answerTableQuestion(ports.metadata, question, found, queryTerms, wider);
  // the table check's time whether or not a table answers: a prose answer waited for it too
  timings.table = ms(tt);
  if (table) {
    const retrieved = table.retrieved.slice(0, 10);
    yield { type: 'retrieved', retrieved };
    const a = table.answer;
    const gate = { score: a.score, threshold: DEFAULT_TABLE_OPTIONS.minEvidence, features: a.features };
    // the keyless reading: the table's answer with its line (which table, how)
    const keyless: Answer = {
      question,
      answer: a.refused ? (a.refusal ?? refusalMessage(question)) : a.answer,
      refused: a.refused,
      ...(a.refused ? { refusal_reason: a.refusal ? (a.refusalCode ?? 'figure-operand-missing') : 'table-not-found' } : {}),
      citations: a.refused ? [] : a.citations,
      ...(a.value && !a.refused ? { value: a.value } : {}),
      ...(a.calculation && !a.refused ? { calculation: a.calculation } : {}),
      gate: table.reason ? { ...gate, ...table.reason } : gate,
      ...scoping,
      retrieved,
      timings,
    };
    // with a generator, a computed figure goes to the model with its operands, and its figures are checked
    if (ports.generator && !a.refused && a.calculation && a.value) {
      const answer = await inModelWords(ports, question, keyless, timings);
      timings.total_ms = ms(t0);
      yield { type: 'answer', answer };
      return;
    }
    // with a generator, the tables go to the model as grids and it cites their cells (a generated answer reads the grids itself)
    if (ports.generator && !a.refused && table.tables.length > 0) {
      const t2 = performance.now();
      const input = { question, tables: table.tables, generator: ports.generator };
      for await (const event of streamTableAnswer(input)) {
        if (event.type !== 'done') {
          yield event;
          continue;
        }
        timings.generate = ms(t2);
        timings.total_ms = ms(t0);
        yield { type: 'answer', answer: { question, ...generatedFields(event.answer), gate, ...scoping, retrieved, timings } };
      }
      return;
    }
    timings.total_ms = ms(t0);
    yield { type: 'answer', answer: keyless };
    return;
  }
  const tc = performance.now();
  const top = await ranked(ports.metadata, found.slice(0, config.retrieval.answerChunks), queryTerms);
  timings.context = ms(tc);
  const t1 = performance.now();
  const satisfied = satisfiedWords(scope);
  const input = { question, chunks: top, queryTerms, ...(satisfied.length > 0 ? { satisfied } : {}) };
  const result = answerExtractive(input, config.gate?.config);
  timings.answer = ms(t1);
  const retrieved = found.slice(0, 10).map((c) => c.hit);
  yield { type: 'retrieved', retrieved };
  if (ports.generator && !result.refused) {
    const t2 = performance.now();
    const input = { question, chunks: top, generator: ports.generator, embedder: ports.embedder ?? null };
    for await (const event of streamGeneratedAnswer(input)) {
      if (event.type !== 'done') {
        yield event;
        continue;
      }
      timings.generate = ms(t2);
      timings.total_ms = ms(t0);
      yield { type: 'answer', answer: { question, ...generatedFields(event.answer), ...scoping, retrieved, timings } };
    }
    return;
  }
  timings.total_ms = ms(t0);
  const answer: Answer = {
    question,
    answer: result.answer,
    refused: result.refused,
    ...(result.refused ? { refusal_reason: found.length === 0 ? 'no-candidates' : 'weak-evidence' } : {}),
    citations: result.refused ? [] : result.citations,
    gate: { ...result.gate, features: { ...result.gate.features } },
    ...scoping,
    retrieved,
    timings,
  };
  yield { type: 'answer', answer };
}

/**
 * A computed figure's answer in the configured model's words: the model is given the operands and
 * the computed figure, and its answer is kept only where every figure it states is one of them
 * (generate-figure.ts); else, or without a model, the computed answer stands.
 */
async function inModelWords(
  ports: EnginePorts,
  question: string,
  computed: Answer,
  timings: Record<string, number>,
): Promise<Answer> {
  if (!ports.generator || computed.refused || !computed.value) return computed;
  const t = performance.now();
  const written = await generateFigure({
    question,
    generator: ports.generator,
    computed: computed.answer,
    number: computed.value.number,
    calculation: computed.calculation,
    citations: computed.citations,
  });
  timings.generate = ms(t);
  return written ? { ...computed, answer: written.answer, generator: written.generator } : computed;
}

/** The answer of a report figure: the figure with its calculation, or the refusal naming the line item not found. */
function figureAnswer(
  question: string,
  figure: ReportFigureAnswer,
  scoping: { scope?: Answer['scope'] },
  retrieved: Retrieved[],
  timings: Record<string, number>,
): Answer {
  const common = { question, answer: figure.answer, refused: figure.refused, ...scoping, retrieved, timings };
  if (figure.refused) return { ...common, refusal_reason: 'figure-operand-missing', citations: [] };
  return { ...common, citations: figure.citations, value: figure.value, calculation: figure.calculation };
}

/** A compound question: each part answered on its own (no further rewriting), then merged. */
async function* askParts(
  ports: EnginePorts,
  config: EngineConfig,
  question: string,
  parts: string[],
  options: QueryOptions,
  clock: { t0: number; timings: Record<string, number> },
): AsyncGenerator<AskEvent> {
  const single = { ...config, retrieval: { ...config.retrieval, rewrite: false } };
  const answers = await Promise.all(parts.map((part) => ask(ports, single, part, options)));
  const merged = mergePartAnswers(answers, ports.generator?.id ?? '');
  yield { type: 'retrieved', retrieved: merged.retrieved };
  clock.timings.total_ms = ms(clock.t0);
  yield { type: 'answer', answer: { question, ...merged, parts, timings: clock.timings } };
}

/** The whole answer at once. */
export async function ask(
  ports: EnginePorts,
  config: EngineConfig,
  question: string,
  options: QueryOptions = {},
): Promise<Answer> {
  for await (const event of askStream(ports, config, question, options)) if (event.type === 'answer') return event.answer;
  throw createError('PP_INTERNAL', 'The ask pipeline ended without an answer.');
}
