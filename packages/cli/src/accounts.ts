import { openDistributedAccessStore, openEmbeddedAccessStore } from '@pinpoint/compose';
import { createError } from '@pinpoint/core';
import { createIdentity, feedbackJsonl } from '@pinpoint/engine';
import type { CliConfig } from './config.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * `users add|list|remove`, `tokens create|revoke` and `feedback export` on the data folder's metadata
 * database, or in the distributed mode on the deployment's PostgreSQL schema (the servers see them at
 * once). Returns false when the arguments are incomplete.
 */
export async function runAccounts(cfg: CliConfig, print: (line: string) => void): Promise<boolean> {
  const [sub, arg] = cfg.args;
  const store =
    cfg.accounts.kind === 'distributed'
      ? await openDistributedAccessStore(cfg.accounts.databaseUrl, cfg.accounts.pgSchema)
      : openEmbeddedAccessStore(cfg.dataDir);
  const identity = createIdentity(store);
  const { json } = cfg.flags;
  try {
    if (cfg.command === 'users' && sub === 'add' && arg) {
      if (!cfg.flags.passwordStdin)
        throw createError('PP_VALIDATION', 'Pass the password on standard input with --password-stdin.');
      const user = await identity.addUser(arg, await readStdin(), { admin: cfg.flags.admin });
      print(json ? JSON.stringify(user) : `added ${user.email}${user.admin ? ' (instance admin)' : ''} ${user.user_id}`);
    } else if (cfg.command === 'users' && sub === 'list') {
      for (const u of await store.listUsers())
        print(json ? JSON.stringify(u) : `${u.user_id}  ${u.email}${u.admin ? '  admin' : ''}`);
    } else if (cfg.command === 'users' && sub === 'remove' && arg) {
      const user = await identity.removeUser(arg);
      print(json ? JSON.stringify(user) : `removed ${user.email}`);
    } else if (cfg.command === 'tokens' && sub === 'create' && arg) {
      const found = await store.findUserByEmail(arg);
      if (!found) throw createError('PP_NOT_FOUND', `No user ${arg}.`);
      const { token, info } = await identity.createToken(found.user.user_id, cfg.flags.name ?? 'cli');
      await store.appendAudit({
        user_id: found.user.user_id,
        action: 'token.create',
        collection_id: null,
        target: info.token_id,
        detail: { name: info.name, via: 'cli' },
      });
      print(
        json
          ? JSON.stringify({ token, token_id: info.token_id })
          : `${token}\n(token ${info.token_id}; shown once, keep it secret)`,
      );
    } else if (cfg.command === 'feedback' && sub === 'export') {
      // JSON lines already: one eval question per judged answer (what GET /api/admin/feedback.jsonl serves)
      process.stdout.write(feedbackJsonl(await store.listFeedback()));
    } else if (cfg.command === 'tokens' && sub === 'revoke' && arg) {
      await identity.revokeToken(arg);
      print(json ? JSON.stringify({ revoked: arg }) : `revoked ${arg}`);
    } else {
      return false;
    }
    return true;
  } finally {
    await store.close();
  }
}
