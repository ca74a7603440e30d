import type { Citation } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { citationHref, formatRoute, parseRoute } from './route.js';

const citation: Citation = {
  n: 2,
  document_id: 'doc_1',
  version_id: 'ver_abc',
  chunk_id: 'ver_abc:c000003',
  element_id: 'e000007',
  file: '梅雨 & co?.md',
  anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: 10, end: 20, text_sha256: 'a'.repeat(64) },
  quote: 'quote',
  precision: 'exact',
};

describe('routes', () => {
  it('a citation opened from a history entry keeps the entry, for the way back', () => {
    expect(parseRoute(citationHref(citation, 'q?', 'his_0a1b'))).toMatchObject({
      name: 'cite',
      question: 'q?',
      historyId: 'his_0a1b',
    });
  });

  it('round-trips the documents page and a reopened history entry', () => {
    for (const route of [{ name: 'documents' }, { name: 'history' }, { name: 'history', historyId: 'his_0a1b' }] as const) {
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
  });

  it('round-trips a citation link with its anchor and question', () => {
    const href = citationHref(citation, '梅雨がみられるのは？ & more');
    expect(parseRoute(href)).toEqual({
      name: 'cite',
      versionId: 'ver_abc',
      chunkId: 'ver_abc:c000003',
      elementId: 'e000007',
      n: 2,
      anchor: citation.anchor,
      question: '梅雨がみられるのは？ & more',
    });
  });

  it('parses home, a question and the admin console', () => {
    expect(parseRoute('')).toEqual({ name: 'home' });
    expect(parseRoute('#/')).toEqual({ name: 'home' });
    expect(parseRoute(formatRoute({ name: 'home', question: 'a?b' }))).toEqual({ name: 'home', question: 'a?b' });
    expect(parseRoute('#/admin')).toEqual({ name: 'admin' });
  });

  it('opens a link with a damaged anchor at the element, without the anchor', () => {
    expect(parseRoute('#/cite?v=ver_1&e=e1&a=%7Bnot-json')).toEqual({ name: 'cite', versionId: 'ver_1', elementId: 'e1' });
    expect(parseRoute('#/cite?v=ver_1&a=%7B%22kind%22%3A%22evil%22%7D')).toEqual({ name: 'cite', versionId: 'ver_1' });
  });

  it('round-trips a newer-version link that remembers the citation to go back to', () => {
    const cite = parseRoute(citationHref(citation, 'q & a?'));
    expect(cite.name).toBe('cite');
    if (cite.name !== 'cite') return;
    const href = formatRoute({ name: 'version', versionId: 'ver_new', from: cite });
    expect(href.startsWith('#/version?')).toBe(true);
    expect(parseRoute(href)).toEqual({ name: 'version', versionId: 'ver_new', from: cite });
    expect(parseRoute('#/version?v=ver_new')).toEqual({ name: 'version', versionId: 'ver_new' });
    expect(parseRoute('#/version?v=ver_new&from=%23%2Fadmin')).toEqual({ name: 'version', versionId: 'ver_new' });
    expect(parseRoute('#/version')).toEqual({ name: 'home' });
  });

  it('treats a citation link without a version as home', () => {
    expect(parseRoute('#/cite?c=x')).toEqual({ name: 'home' });
  });
});
