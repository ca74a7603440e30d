import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDistributedAccessStore, openEmbeddedAccessStore } from '@pinpoint/compose';
import { createIdentity } from '@pinpoint/engine';
import { dropSchema } from '@pinpoint/postgres';
import { afterAll, describe, expect, it } from 'vitest';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));

function pinpoint(
  dir: string,
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, PINPOINT_DATA_DIR: join(dir, 'data'), INIT_CWD: dir, ...env } },
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
  }, 300_000);

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

describe('pinpoint users / tokens in the distributed mode (PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-cli-users-pg-'));
  const schema = `pp_cli_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const env = { PINPOINT_MODE: 'distributed', PINPOINT_DATABASE_URL: DATABASE_URL, PINPOINT_PG_SCHEMA: schema };
  const cli = (args: string[], stdin = '') => pinpoint(dir, args, stdin, env);
  afterAll(async () => {
    await dropSchema(DATABASE_URL, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps users and tokens in the deployment's schema, where its servers read them, and none in the data folder", async () => {
    expect((await cli(['users', 'add', 'ops@x.test', '--admin', '--password-stdin'], 'a long enough password\n')).code).toBe(0);
    expect((await cli(['users', 'add', 'ops@x.test', '--password-stdin'], 'another long password')).stderr).toMatch(
      /PP_CONFLICT/,
    );
    expect((await cli(['users', 'list'])).stdout).toMatch(/ops@x\.test {2}admin/);
    const { token, token_id } = JSON.parse((await cli(['tokens', 'create', 'ops@x.test', '--json'])).stdout.trim());
    const store = await openDistributedAccessStore(DATABASE_URL, schema);
    try {
      const identity = createIdentity(store);
      expect(await identity.authenticateToken(token)).toMatchObject({ kind: 'user', email: 'ops@x.test', admin: true });
      expect((await identity.login('ops@x.test', 'a long enough password')).user.email).toBe('ops@x.test');
      // the embedded store of the data folder knows nothing of them
      expect((await pinpoint(dir, ['users', 'list'])).stdout.trim()).toBe('');
      expect((await cli(['tokens', 'revoke', token_id])).code).toBe(0);
      expect(await identity.authenticateToken(token)).toBeNull();
    } finally {
      await store.close();
    }
    expect((await cli(['users', 'remove', 'ops@x.test'])).code).toBe(0);
    expect((await cli(['users', 'list'])).stdout.trim()).toBe('');
  }, 300_000);
});
