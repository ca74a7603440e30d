import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { errorCodes } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { loadMessages } from './catalogues.js';
import { LOCALES } from './locales.js';
import { en } from './messages/en.js';

/** The arguments and tags a message uses ("count", "<link>"): what every language must fill the same way. */
function placeholders(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
    out.add(e.type === TYPE.tag ? `<${e.value}>` : e.value);
    if (e.type === TYPE.tag) placeholders(e.children, out);
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      for (const option of Object.values(e.options)) placeholders(option.value, out);
    }
  }
  return out;
}

const sorted = (s: Set<string>) => [...s].sort();
const english = Object.keys(en).sort();

describe('message catalogues', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has exactly the English keys, each with the same placeholders`, async () => {
      const messages: Record<string, string> = await loadMessages(locale);
      expect(Object.keys(messages).sort()).toEqual(english);
      for (const [id, source] of Object.entries(en)) {
        const translated = messages[id] ?? '';
        expect(translated.trim(), `${locale} ${id} is empty`).not.toBe('');
        expect(sorted(placeholders(parse(translated))), `${locale} ${id}`).toEqual(sorted(placeholders(parse(source))));
      }
    });

    it(`${locale} is translated: no message is left as the English one`, async () => {
      const messages: Record<string, string> = await loadMessages(locale);
      // the same text in both is allowed only when it holds no English word of three letters or more
      const untranslated = Object.entries(en).filter(
        ([id, source]) => messages[id] === source && /[A-Za-z]{3,}/.test(source.replace(/\{[^}]*\}/g, '')),
      );
      expect(untranslated).toEqual([]);
    });
  }

  it('has a sentence for every PP_* error code of @pinpoint/core', () => {
    const missing = Object.keys(errorCodes).filter((code) => !(`error.${code}` in en));
    expect(missing).toEqual([]);
  });
});
