import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SpooledFile } from '@pinpoint/engine';

/**
 * A request's upload folder: each file part is streamed to disk, hashed and counted on the way, so
 * no upload is ever held whole in memory; the folder is removed when the request ends.
 */
export async function openSpool(): Promise<{
  write(source: NodeJS.ReadableStream): Promise<SpooledFile>;
  remove(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'pp-upload-'));
  let n = 0;
  return {
    write: async (source) => {
      const path = join(dir, String(n++));
      const hash = createHash('sha256');
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.byteLength;
          done(null, chunk);
        },
      });
      await pipeline(source, tap, createWriteStream(path, { mode: 0o600 }));
      return { path, sha256: hash.digest('hex'), size };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
