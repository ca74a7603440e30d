import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { Page } from 'playwright-core';
import { en } from '../src/i18n/messages/en.js';

/** The words (three Latin letters or more, lower-cased) a catalogue's own text uses. */
function catalogueWords(messages: Record<string, string>): string[] {
  const words = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.literal) for (const w of e.value.match(/[A-Za-z]{3,}/g) ?? []) words.add(w.toLowerCase());
      if (e.type === TYPE.tag) walk(e.children);
      if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) walk(o.value);
    }
  };
  for (const m of Object.values(messages)) walk(parse(m));
  return [...words];
}

/**
 * What a page shows in English although its language is another: the app chrome's text nodes and
 * its accessible labels (aria-label, placeholder, title, alt), outside `translate="no"` (the
 * documents' own text, file names, emails, the user's question). A catalogue key shown as such is
 * a finding; so is a word of the English catalogue that the page's own catalogue does not use
 * ("Pinpoint", "PDF" or "Bearer" are in both and pass). Tokens with `@ . _ / :` or digits (file
 * names, emails, error codes, numbers) are not words.
 */
export async function untranslatedText(page: Page, messages: Record<string, string>): Promise<string[]> {
  const own = new Set(catalogueWords(messages));
  const english = catalogueWords(en).filter((w) => !own.has(w));
  return page.evaluate(
    ({ english, keys }) => {
      const flagged = new Set(english);
      const keySet = new Set(keys);
      const found: string[] = [];
      const inspect = (text: string, where: string) => {
        for (const token of text.split(/[\s,;()[\]{}«»“”‘’「」『』、。，：？！·…—–-]+/)) {
          if (!token) continue;
          if (keySet.has(token)) found.push(`${where}: catalogue key ${token}`);
          else if (!/[@._/:\d]/.test(token) && /^[A-Za-z]{3,}$/.test(token.replace(/[’'"!?]+$/, '')))
            if (flagged.has(token.toLowerCase().replace(/[’'"!?]+$/, ''))) found.push(`${where}: “${token}” in “${text.trim()}”`);
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!parent || parent.closest('[translate="no"], script, style, code')) continue;
        inspect(n.textContent ?? '', `<${parent.tagName.toLowerCase()}>`);
      }
      for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
        if (el.closest('[translate="no"]')) continue;
        for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
          const value = el.getAttribute(attr);
          if (value) inspect(value, `${el.tagName.toLowerCase()}[${attr}]`);
        }
      }
      return found;
    },
    { english, keys: Object.keys(en) },
  );
}
