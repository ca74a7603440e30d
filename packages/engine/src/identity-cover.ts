import type { Element } from '@pinpoint/core';
import { KIND_WORDS } from './identity-file-name.js';

/**
 * What a report's cover page and its declared title say it is: the registrant's name (SEC forms:
 * the line above "(Exact name of registrant as specified in its charter)"; 有価証券報告書: 【会社名】;
 * 年度报告: 公司名称), the issuer of a press release ("Johnson & Johnson (NYSE: JNJ) today
 * announced", "PepsiCo Reports …"), ticker symbols, and the form the document is.
 */

/** Elements of the cover: the first page of a paged document, else the first elements. */
const COVER_ELEMENTS = 40;

export function coverElements(elements: Element[]): Element[] {
  const firstPage = elements.filter((e) => e.anchor.kind === 'page' && e.anchor.page_index === 0);
  return (firstPage.length > 0 ? firstPage : elements).slice(0, COVER_ELEMENTS).map(asLine);
}

/**
 * A table row of the cover read as the page's line: its cells one after another. The table path
 * joins them with " | ", which hid a cover's "JNJ New York Stock Exchange" once PDF tables were read.
 */
function asLine(e: Element): Element {
  if (!e.table || !e.cells?.length) return e;
  const chars = Array.from(e.text);
  return { ...e, text: e.cells.map((c) => chars.slice(c.start, c.end).join('')).join(' ') };
}

const EXACT_NAME = /\(\s*exact name of (?:the )?registrant/i;
const FILE_NUMBER = /commission file n(?:o|umber)/i;
const LEGAL_END = /\b(inc\.?|incorporated|corporation|corp\.?|company|co\.|plc|ltd\.?|limited|llc|n\.v\.|s\.a\.|ag|se)$/i;
/** A press release names its issuer with its listing: "PepsiCo, Inc. (NASDAQ: PEP)". */
const LISTED = /([A-Z][\w.&,' -]{1,60}?)\s*\((?:NYSE|NASDAQ|Nasdaq|NYSE American|LSE|TSX|ASX|OTC)\s*:\s*([A-Z.]{1,6})\)/;
/** A headline names its issuer first: "Amcor reports fiscal 2023 results". */
const HEADLINE = /^([A-Z][\w.&' -]{1,40}?)\s+(?:reports|announces|posts|delivers|declares)\b/i;
/** Symbols listed beside an exchange on a cover ("… AXP New York Stock Exchange"). */
const SYMBOL = /\b([A-Z]{1,5})\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|NASDAQ)\b/g;
const JA_NAME = /【(?:会社名|提出会社名?)】\s*([^\s【]{2,40})/u;
const ZH_NAME = /公司(?:的中文)?名称\s*[:：]?\s*([^\s:：,，。]{2,40})/u;

/**
 * A cover line that could be a company name: short, mostly letters, not a form's boilerplate; in
 * capitals or with a legal ending, unless the form itself says the line is the name (`named`: the
 * line above "(Exact name of registrant…)", where "Johnson & Johnson" stands in its own case).
 */
function looksLikeName(text: string, named = false): boolean {
  const t = text.trim();
  if (t.length < 2 || t.length > 80 || /\d{3}/.test(t)) return false;
  if (/securities|exchange commission|washington|form\s|report|pursuant|table of contents/i.test(t)) return false;
  const letters = t.replace(/[^\p{L}]/gu, '');
  return letters.length >= 2 && (t === t.toUpperCase() || LEGAL_END.test(t) || (named && /^\p{Lu}/u.test(t)));
}

/** The registrant of an SEC form: the line above "(Exact name of registrant…)", else the name-like line after the file number. */
function registrant(cover: Element[]): string | undefined {
  const exact = cover.findIndex((e) => EXACT_NAME.test(e.text));
  if (exact >= 0) {
    const before = cover[exact]?.text.split(EXACT_NAME)[0]?.trim();
    if (before && looksLikeName(before, true)) return before;
    const above = cover[exact - 1]?.text.trim();
    if (above && looksLikeName(above, true)) return above;
  }
  const fileNo = cover.findIndex((e) => FILE_NUMBER.test(e.text));
  if (fileNo < 0) return undefined;
  return cover
    .slice(fileNo + 1, fileNo + 4)
    .find((e) => looksLikeName(e.text))
    ?.text.trim();
}

export interface CoverNames {
  names: string[];
  symbols: string[];
}

/** The names a cover page gives (registrant, issuer, 会社名, 公司名称) and the ticker symbols it lists. */
export function namesFromCover(cover: Element[]): CoverNames {
  const names: string[] = [];
  const symbols = new Set<string>();
  const text = cover.map((e) => e.text).join('\n');
  const sec = registrant(cover);
  if (sec) names.push(sec);
  const listed = LISTED.exec(text);
  if (listed?.[1]) {
    names.push((listed[1].split(/\s\p{Pd}\s/u).pop() ?? listed[1]).trim());
    if (listed[2]) symbols.add(listed[2]);
  }
  const headline = cover
    .slice(0, 3)
    .map((e) => HEADLINE.exec(e.text.trim())?.[1])
    .find(Boolean);
  if (headline) names.push(headline);
  // two-letter symbols ("BA", "FL") read as ordinary abbreviations in questions: not kept
  for (const m of text.matchAll(SYMBOL)) if (m[1] && m[1].length >= 3 && m[1] !== 'NYSE') symbols.add(m[1]);
  const ja = JA_NAME.exec(text)?.[1];
  if (ja) names.push(ja);
  const zh = ZH_NAME.exec(text)?.[1];
  if (zh) names.push(zh);
  // "NIKE, Inc ." as a PDF's text layer spaces it: no space before a name's punctuation
  const tidy = (n: string): string => n.replace(/\s+(?=[.,])/g, '').replace(/[,\s]+$/, '');
  return { names: [...new Set(names.map(tidy))], symbols: [...symbols] };
}

const COVER_KINDS: [RegExp, string][] = [
  [/\bFORM\s+10-K\b|\bANNUAL REPORT PURSUANT TO SECTION 13\b/i, '10-K'],
  [/\bFORM\s+10-Q\b|\bQUARTERLY REPORT PURSUANT TO SECTION 13\b/i, '10-Q'],
  [/\bFORM\s+8-K\b|\bCURRENT REPORT\s+PURSUANT\b/i, '8-K'],
  [/\bFORM\s+20-F\b/i, '20-F'],
  [/有価証券報告書/u, '有価証券報告書'],
  [/四半期報告書/u, '四半期報告書'],
  [/決算短信/u, '決算短信'],
  [/半年度报告/u, '半年度报告'],
  [/年度报告|年度報告/u, '年度报告'],
  [/季度报告/u, '季度报告'],
  [/\b(?:reports|announces)\b.{0,60}\bresults\b|\bfor immediate release\b|\bpress release\b/i, 'earnings release'],
  [/\bannual report\b/i, 'annual report'],
  [/\b(?:agreement|contract)\b/i, 'contract'],
  [/\b(?:user guide|manual|handbook)\b/i, 'manual'],
];

/** The kind the cover says the document is, checked in order (a 10-K's cover also says "annual report"). */
export function kindFromCover(cover: Element[]): string | undefined {
  const text = cover
    .slice(0, 12)
    .map((e) => e.text)
    .join('\n');
  return COVER_KINDS.find(([re]) => re.test(text))?.[1];
}

/** Titles that name no document: accession numbers, converter leftovers, the SEC's letterhead. */
const GENERIC_TITLE = /^[\d\s-]+$|microsoft word|untitled|securities and exchange commission|^document\d*$/i;
const TITLE_PATTERNS = [
  /^form\s+\S+\s+for\s+(.+?)\s+filed\b/i,
  /^[\w-]+\s+-\s+[\d/]+\s+-\s+(.+)$/,
  /^(.{2,40}?)\s+(?:reports|announces)\b/i,
];

/** What a declared title says: the name it gives (only in a recognised shape) and a kind word. */
export function fromTitle(title: string | undefined): { name?: string; kind?: string } {
  const t = title?.trim();
  if (!t || GENERIC_TITLE.test(t)) return {};
  // a title without digits is what the document is called ("Wild Duck Observations"); one with
  // digits is a filing label ("ADBE 10-K FY22"), read for a name only in a known shape
  const plain = !/\d/.test(t) && t.split(/\s+/).length <= 8 ? t : undefined;
  const name = TITLE_PATTERNS.map((re) => re.exec(t)?.[1]?.trim()).find((n) => n && n.length >= 2) ?? plain;
  const kindWord = t
    .toLowerCase()
    .split(/[\s_]+/)
    .map((w) => KIND_WORDS[w.replace(/-/g, '')])
    .find(Boolean);
  return { ...(name ? { name } : {}), ...(kindWord ? { kind: kindWord } : {}) };
}
