import type { QaTable } from '../table/model.js';

/** The primary statements of a report: a line item of the lexicon is read from them first. */
export type Statement = 'income' | 'balance' | 'cash-flow';

/**
 * An English statement name said of something else ("selected income statement data", "balance sheet
 * information"): no statement's title.
 */
const OF_SOMETHING_ELSE = String.raw`(?!\s+(?:data|information|items?|details?)\b)`;

/** A statement's names: English ones as whole words not said of something else, then other languages'. */
const names = (english: string, others: string): RegExp =>
  new RegExp(String.raw`\b(?:${english})\b${OF_SOMETHING_ELSE}|${others}`, 'iu');

/**
 * How reports title each statement, and how questions name it, in the product's languages (data:
 * a new wording is an entry here). Matched against NFKC text, case-insensitive.
 */
const STATEMENT_NAMES: ReadonlyArray<readonly [Statement, RegExp]> = [
  [
    'cash-flow',
    names(
      String.raw`statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?|cash\s+flows?\s+statements?`,
      'キャッシュ[・･]?フロー計算書|现金流量表|現金流量表',
    ),
  ],
  [
    'balance',
    names(
      String.raw`balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?financial\s+(?:position|condition)`,
      '貸借対照表|财政状况表|资产负债表|資產負債表',
    ),
  ],
  [
    'income',
    names(
      String.raw`statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|comprehensive\s+(?:income|loss)|profit\s+(?:or|and)\s+loss)|income\s+statements?|p\s*&\s*l`,
      '損益計算書|损益表|損益表|利润表|綜合損益表',
    ),
  ],
];

/** Every statement a question names ("… off of the statement of income and the statement of cash flows"). */
export function statementsNamed(text: string): Set<Statement> {
  const t = text.normalize('NFKC');
  return new Set(STATEMENT_NAMES.filter(([, re]) => re.test(t)).map(([s]) => s));
}

/** The statement a table is, by its title, the headings it sits under and the lines above it. */
export function statementOf(table: QaTable): Statement | undefined {
  let found = statements.get(table);
  if (found === undefined) {
    // the first it names, in the order cash flows, balance sheet, income — in a line that titles it,
    // not in prose about it ("the impact on the consolidated balance sheet") nor in a note's heading
    // ("NOTE 7. Supplemental Balance Sheet Information")
    // (a statement's title may be its header's first row: "| CONSOLIDATED STATEMENTS OF INCOME |")
    const header = table.columns.map((c) => c.name.split(' / ')[0] ?? '');
    const lines = [table.title, table.headings ?? '', ...(table.lead ?? []), ...header].filter(titles);
    const [first] = statementsNamed(lines.flatMap((l) => [l, unspaced(l)]).join(' \n '));
    found = first ?? null;
    statements.set(table, found);
  }
  return found ?? undefined;
}
const statements = new WeakMap<QaTable, Statement | null>();

/** A line as long as a title, no sentence ("… as follows:", "… on the balance sheet."), and no note's heading. */
const titles = (line: string): boolean =>
  line.length <= TITLE_LENGTH &&
  !/\p{Ll}{2}[.;]\s+\p{Lu}\p{Ll}/u.test(line) &&
  !/\p{Ll}[.:]\s*$/u.test(line) &&
  !/^\s*notes?\s+(?:\d|to\b)/iu.test(line);
const TITLE_LENGTH = 200;

/** A PDF line whose last letter a kerned font set apart ("Consolidated Balance Shee t"), joined again. */
const unspaced = (line: string): string => line.replace(/(?<=\p{L}{2})\s(?=\p{Ll}(?:\s|$))/gu, '');
