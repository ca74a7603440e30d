import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbeddedAccessStore } from '@pinpoint/compose';
import { createIdentity } from '@pinpoint/engine';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));

function pinpoint(dir: string, args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, PINPOINT_DATA_DIR: join(dir, 'data'), INIT_CWD: dir } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

describe('pinpoint users / tokens on the data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-cli-users-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds, lists and removes users; creates a token shown once (--json) that the server accepts, and revokes it', async () => {
    expect((await pinpoint(dir, ['users', 'add', 'ops@x.test', '--admin'])).code).toBe(1);
    const added = await pinpoint(dir, ['users', 'add', 'ops@x.test', '--admin', '--password-stdin'], 'a long enough password\n');
    expect(added.code).toBe(0);
    expect((await pinpoint(dir, ['users', 'add', 'ops@x.test', '--password-stdin'], 'another long password')).stderr).toMatch(
      /PP_CONFLICT/,
    );
    expect((await pinpoint(dir, ['users', 'list'])).stdout).toMatch(/ops@x\.test {2}admin/);
    const created = await pinpoint(dir, ['tokens', 'create', 'ops@x.test', '--name', 'ci', '--json']);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { token, token_id } = JSON.parse(lines[0] as string);
    const store = openEmbeddedAccessStore(join(dir, 'data'));
    try {
      const identity = createIdentity(store);
      expect(await identity.authenticateToken(token)).toMatchObject({ kind: 'user', email: 'ops@x.test', admin: true });
      const login = await identity.login('ops@x.test', 'a long enough password');
      expect(login.user.email).toBe('ops@x.test');
      expect((await pinpoint(dir, ['tokens', 'revoke', token_id])).code).toBe(0);
      expect(await identity.authenticateToken(token)).toBeNull();
    } finally {
      await store.close();
    }
    expect((await pinpoint(dir, ['users', 'remove', 'ops@x.test'])).code).toBe(0);
    expect((await pinpoint(dir, ['users', 'list'])).stdout.trim()).toBe('');
  }, 120_000);

  it('feedback export prints the judged answers as eval questions, one JSON line each', async () => {
    const store = openEmbeddedAccessStore(join(dir, 'data'));
    try {
      const user = await store.createUser({ email: 'asker@x.test', password_hash: 'h', admin: false });
      const userId = user?.user_id ?? '';
      const base = { user_id: userId, collection_id: null };
      const judged = await store.appendHistory({
        ...base,
        question: '梅雨はいつ？',
        answer: { question: '梅雨はいつ？', answer: '5月から7月 [1]', refused: false, citations: [] },
      });
      await store.appendHistory({
        ...base,
        question: 'unjudged?',
        answer: { question: 'unjudged?', answer: '', refused: true, citations: [] },
      });
      await store.setFeedback(userId, judged.history_id, { verdict: 'should_have_refused', note: null });
    } finally {
      await store.close();
    }
    const out = await pinpoint(dir, ['feedback', 'export']);
    expect(out.code).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ question: '梅雨はいつ？', lang: 'ja', answerable: false, answers: [], gold: [] });
  });
});
