import type { TableWords } from './lexicon/index.js';
import type { QaTable } from './model.js';
import { termsOf } from './model.js';
import { without } from './question-words.js';

/**
 * Terms a name is said in, at the least: a company's name gives a word and its character pairs
 * (「キーエンス」: six); one common word a caption happens to say ("company") is no name.
 */
const NAME_TERMS = 3;

/** The terms a table holds in its headers and cells, not its title: what the table itself says. */
const bodies = new WeakMap<QaTable, Set<string>>();
function bodyOf(table: QaTable): Set<string> {
  let body = bodies.get(table);
  if (!body) {
    body = new Set(table.columns.flatMap((c) => [...c.terms]));
    for (const r of table.rows) for (const c of r.cells.values()) for (const t of c.terms) body.add(t);
    bodies.set(table, body);
  }
  return body;
}

/**
 * How far each table's document misses the document a question names (0..1, one per table): the
 * question's terms that some table's title (its file name or heading) says and no table's headers
 * or cells do — a company's name in 「三菱商事株式会社の2020年…」 — weighed as the index weighs them:
 * the share of the question's weight that names this table's title lacks. All zero when the question names no document.
 * (Issue 38's document identity — the company and report a file is — is the better source of a
 * document's names; it plugs in here, as the title terms of each table.)
 */
export function documentMisses(
  question: string,
  tables: { table: QaTable; title: string }[],
  weights: Map<string, number>,
  words: TableWords,
): number[] {
  const asked = termsOf(without(question.normalize('NFKC').toLowerCase(), words.particles, words));
  const titles = tables.map((t) => termsOf(`${t.title} ${t.table.title}`));
  const said = new Set(tables.flatMap((t) => [...bodyOf(t.table)]));
  const naming = [...asked].filter(
    (t) => !said.has(t) && titles.some((title) => title.has(t)) && !titles.every((title) => title.has(t)),
  );
  const weight = (t: string): number => weights.get(t) || 1;
  // a name weighs as its share of the question: one common word a caption says is hardly a name
  const total = [...asked].reduce((s, t) => s + weight(t), 0);
  if (naming.length < NAME_TERMS || total === 0) return tables.map(() => 0);
  return titles.map((title) => naming.reduce((s, t) => (title.has(t) ? s : s + weight(t)), 0) / total);
}
