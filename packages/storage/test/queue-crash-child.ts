/**
 * Test fixture for job durability: claims the job, reports that it started, then hangs until the
 * test kills this process with SIGKILL. argv: <queue db path> <version id>.
 */
import { SqliteJobQueue } from '../src/job-queue.js';

const [path, versionId] = process.argv.slice(2);
const queue = new SqliteJobQueue({ path: path!, leaseMs: 60_000, pollMs: 20 });
await queue.enqueue({ version_id: versionId!, document_id: 'doc', collection_id: 'col', file: 'a.md', recipe_key: 'r1' });
queue.start(async (_job, ctx) => {
  await ctx.progress({ stage: 'parsing', percent: 10 });
  process.send?.('started');
  await new Promise(() => {});
});
