import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, renderOpenApi } from './openapi.js';

describe('docs/openapi.json', () => {
  it('matches the route schemas (regenerate: pnpm --filter @pinpoint/api openapi)', async () => {
    const doc = await renderOpenApi();
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(doc);
    const paths = Object.keys(JSON.parse(doc).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/ask',
        '/api/citations/resolve',
        '/api/collections/{collectionId}/uploads',
        '/api/download/{versionId}',
        '/api/collections/{collectionId}/invitations',
        '/api/collections/{collectionId}/invitations/{invitationId}',
        '/api/invitations/preview',
        '/api/invitations/accept',
      ]),
    );
    // the answer's schema is the contract's: the parts of a compound question are served, not dropped
    const ask = JSON.parse(doc).paths['/api/ask'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(ask.properties)).toEqual(expect.arrayContaining(['parts', 'sentences', 'gate', 'retrieved']));
  });
});
