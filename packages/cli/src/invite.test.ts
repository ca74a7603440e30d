import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDistributedAccessStore, openEmbeddedAccessStore, openMetadataStore } from '@pinpoint/compose';
import type { AccessStore, MetadataStore } from '@pinpoint/core';
import { createIdentity, createInvitations } from '@pinpoint/engine';
import { dropSchema } from '@pinpoint/postgres';
import { afterAll, describe, expect, it } from 'vitest';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));

function pinpoint(dir: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, PINPOINT_DATA_DIR: join(dir, 'data'), INIT_CWD: dir, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Accepts the printed link against the stores the server reads: the invitee becomes a member. */
async function acceptAs(access: AccessStore, metadata: MetadataStore, url: string, collectionId: string) {
  const token = url.split('/invite/')[1] as string;
  const deps = { access, metadata, authorize: async () => undefined, audit: async () => undefined };
  const invitations = createInvitations(deps, createIdentity(access), { ttlSeconds: 60 });
  expect(await invitations.preview(token)).toMatchObject({ role: 'editor', invited_by_email: null, account_exists: false });
  const user = await invitations.accept(token, { password: 'a long enough password' });
  expect(await access.getRole(collectionId, user.user_id)).toBe('editor');
  await expect(invitations.accept(token, { password: 'a long enough password' })).rejects.toMatchObject({
    code: 'PP_INVITATION_INVALID',
  });
}

describe('pinpoint invite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-cli-invite-'));
  const schema = `pp_cli_inv_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  afterAll(async () => {
    await dropSchema(DATABASE_URL, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a one-time link under PINPOINT_PUBLIC_URL for a collection of the data folder; bad role or collection are refused', async () => {
    const metadata = await openMetadataStore({ kind: 'embedded', dataDir: join(dir, 'data') });
    const team = await metadata.createCollection('team');
    const env = { PINPOINT_PUBLIC_URL: 'https://docs.example.org' };
    expect((await pinpoint(dir, ['invite', 'new@x.test', '--collection', 'team', '--role', 'boss'], env)).stderr).toMatch(
      /PP_VALIDATION.*--role boss/,
    );
    expect((await pinpoint(dir, ['invite', 'new@x.test', '--collection', 'nope'], env)).stderr).toMatch(/PP_NOT_FOUND.*"nope"/);
    const human = await pinpoint(dir, ['invite', 'other@x.test', '--collection', 'team'], env);
    expect(human.stdout).toMatch(
      /^https:\/\/docs\.example\.org\/invite\/pp_inv_\S+\n\(other@x\.test joins "team" as viewer;.*No e-mail is sent/s,
    );
    const out = await pinpoint(dir, ['invite', 'new@x.test', '--collection', 'team', '--role', 'editor', '--json'], env);
    expect(out.code).toBe(0);
    const { url, invitation } = JSON.parse(out.stdout.trim());
    expect(invitation).toMatchObject({ email: 'new@x.test', role: 'editor', collection_id: team.collection_id });
    const access = openEmbeddedAccessStore(join(dir, 'data'));
    try {
      await acceptAs(access, metadata, url, team.collection_id);
      const audit = await access.listAudit({ collectionId: team.collection_id });
      expect(audit.map((e) => [e.action, e.detail.via])).toContainEqual(['invitation.create', 'cli']);
    } finally {
      await access.close();
      await metadata.close();
    }
  }, 120_000);

  it('in the distributed mode, invites into the deployment schema', async () => {
    const where = { kind: 'distributed' as const, databaseUrl: DATABASE_URL, pgSchema: schema };
    const metadata = await openMetadataStore(where);
    const access = await openDistributedAccessStore(DATABASE_URL, schema);
    try {
      const col = await metadata.createCollection('default');
      const env = { PINPOINT_MODE: 'distributed', PINPOINT_DATABASE_URL: DATABASE_URL, PINPOINT_PG_SCHEMA: schema };
      const out = await pinpoint(dir, ['invite', 'pg@x.test', '--role', 'editor', '--json'], env);
      expect(out.code).toBe(0);
      await acceptAs(access, metadata, JSON.parse(out.stdout).url, col.collection_id);
    } finally {
      await access.close();
      await metadata.close();
    }
  }, 120_000);
});
