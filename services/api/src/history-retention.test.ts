import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccessStore } from './access.js';
import { configFor } from './config.js';
import { installHistoryRetention } from './history-retention.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const answer = (question: string) => ({ question, answer: 'a', refused: false, citations: [] });

describe('question history retention', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function storeWithEntries() {
    const dir = mkdtempSync(join(tmpdir(), 'pp-retention-'));
    dirs.push(dir);
    const access = await openAccessStore(configFor(join(dir, 'data')));
    const user = await access.createUser({ email: 'r@x.test', password_hash: 'h', admin: false });
    const userId = user?.user_id ?? '';
    const first = await access.appendHistory({ user_id: userId, collection_id: null, question: 'old?', answer: answer('old?') });
    await access.setFeedback(userId, first.history_id, { verdict: 'helpful', note: null });
    return { access, userId };
  }

  it('deletes entries older than the setting when the server is ready, then on every sweep', async () => {
    const { access, userId } = await storeWithEntries();
    let now = Date.now() + 2 * DAY_MS;
    const app = Fastify();
    installHistoryRetention(app, access, 1, { sweepMs: 50, now: () => now });
    await app.ready();
    await new Promise((r) => setTimeout(r, 20));
    expect(await access.listHistory(userId)).toEqual([]);
    expect(await access.listFeedback()).toEqual([]);

    now = Date.now();
    await access.appendHistory({ user_id: userId, collection_id: null, question: 'new?', answer: answer('new?') });
    await new Promise((r) => setTimeout(r, 120));
    expect((await access.listHistory(userId)).map((e) => e.question)).toEqual(['new?']);
    now = Date.now() + 2 * DAY_MS;
    await new Promise((r) => setTimeout(r, 120));
    expect(await access.listHistory(userId)).toEqual([]);
    await app.close();
    await access.close();
  });

  it('keeps history forever at 0', async () => {
    const { access, userId } = await storeWithEntries();
    const app = Fastify();
    installHistoryRetention(app, access, 0, { sweepMs: 10, now: () => Date.now() + 1000 * DAY_MS });
    await app.ready();
    await new Promise((r) => setTimeout(r, 50));
    expect(await access.listHistory(userId)).toHaveLength(1);
    await app.close();
    await access.close();
  });

  it('reads PINPOINT_HISTORY_RETENTION_DAYS (default 365) and rejects a negative value', () => {
    expect(configFor('/tmp/pp-x', {}).historyRetentionDays).toBe(365);
    expect(configFor('/tmp/pp-x', { PINPOINT_HISTORY_RETENTION_DAYS: '30' }).historyRetentionDays).toBe(30);
    expect(() => configFor('/tmp/pp-x', { PINPOINT_HISTORY_RETENTION_DAYS: '-1' })).toThrow(/PINPOINT_HISTORY_RETENTION_DAYS/);
  });
});
