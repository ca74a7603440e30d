import { openDistributedAccessStore, openEmbeddedAccessStore, openMetadataStore } from '@pinpoint/compose';
import type { NewAuditEntry, Principal } from '@pinpoint/core';
import { createError, LOCAL_PRINCIPAL } from '@pinpoint/core';
import { createIdentity, createInvitations } from '@pinpoint/engine';
import { publicLink } from '@pinpoint/mcp';
import type { CliConfig } from './config.js';

/**
 * `invite EMAIL --collection NAME [--role R]`: an invitation link made by the operator on the
 * server's machine (every collection is theirs, as with PINPOINT_AUTH=off), in the data folder or
 * the distributed schema the server reads. No e-mail is sent: the link is printed, once.
 */
export async function runInvite(cfg: CliConfig, print: (line: string) => void): Promise<boolean> {
  const [email] = cfg.args;
  if (!email) return false;
  const distributed = cfg.accounts.kind === 'distributed' ? cfg.accounts : null;
  const access = distributed
    ? await openDistributedAccessStore(distributed.databaseUrl, distributed.pgSchema)
    : openEmbeddedAccessStore(cfg.dataDir);
  const metadata = await openMetadataStore(distributed ?? { kind: 'embedded', dataDir: cfg.dataDir });
  try {
    const name = cfg.flags.collection;
    const collection = (await metadata.listCollections()).find((c) => c.name === name);
    if (!collection)
      throw createError(
        'PP_NOT_FOUND',
        `No collection named "${name}": create it in the app, or start the server once for "default".`,
      );
    // The collection was found just above, and the operator holds every role in it.
    const deps = {
      access,
      metadata,
      authorize: async () => undefined,
      audit: async (_p: Principal, entry: Omit<NewAuditEntry, 'user_id'>) => {
        await access.appendAudit({ ...entry, user_id: null, detail: { ...entry.detail, via: 'cli' } });
      },
    };
    const invitations = createInvitations(deps, createIdentity(access), { ttlSeconds: cfg.inviteTtlSeconds });
    const { invitation, token } = await invitations.create(LOCAL_PRINCIPAL, collection.collection_id, email, cfg.flags.role);
    const url = publicLink(cfg.publicUrl, `/invite/${token}`);
    if (cfg.flags.json) print(JSON.stringify({ url, invitation }));
    else {
      print(url);
      print(
        `(${invitation.email} joins "${name}" as ${invitation.role}; the link works once, until ${invitation.expires_at}. ` +
          'No e-mail is sent: give it to them yourself.)',
      );
    }
    return true;
  } finally {
    await metadata.close();
    await access.close();
  }
}
