import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbeddedAccessStore } from '@pinpoint/compose';
import { freePort } from '@pinpoint/conformance';
import { createIdentity } from '@pinpoint/engine';
import { loadDataset } from '@pinpoint/eval';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), join(repoRoot, 'services/api/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PINPOINT_DATA_DIR: dataDir,
        PINPOINT_PORT: String(port),
        PINPOINT_AUTH: 'on',
        PINPOINT_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, child };
    await sleep(200);
  }
  throw new Error('the API did not start');
}

/** Users with a token each, members (viewer) of the default collection; the first is the uploader (editor). */
async function seedUsers(dataDir: string, base: string, n: number): Promise<{ collectionId: string; tokens: string[] }> {
  const store = openEmbeddedAccessStore(dataDir);
  const identity = createIdentity(store);
  try {
    const admin = await identity.addUser('bench-admin@example.com', 'bench-password-0', { admin: true });
    const { token: adminToken } = await identity.createToken(admin.user_id, 'bench');
    const res = await fetch(`${base}/api/collections`, { headers: { authorization: `Bearer ${adminToken}` } });
    const collectionId = ((await res.json()) as { collections: { collection_id: string }[] }).collections[0]?.collection_id ?? '';
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const user = await identity.addUser(`asker${i}@example.com`, `bench-password-${i}x`);
      await store.setMembership(collectionId, user.user_id, i === 0 ? 'editor' : 'viewer');
      tokens.push((await identity.createToken(user.user_id, 'bench')).token);
    }
    return { collectionId, tokens };
  } finally {
    await store.close();
  }
}

async function uploadAndWait(
  base: string,
  token: string,
  collectionId: string,
  files: { path: string; name: string }[],
): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([readFileSync(f.path)]), f.name);
  const res = await fetch(`${base}/api/collections/${collectionId}/uploads`, { method: 'POST', body: form, headers: auth });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const ids = ((await res.json()) as { results: { version: { version_id: string } }[] }).results.map((r) => r.version.version_id);
  for (;;) {
    const states = await Promise.all(
      ids.map(
        async (id) =>
          ((await (await fetch(`${base}/api/versions/${id}`, { headers: auth })).json()) as { version: { state: string } })
            .version.state,
      ),
    );
    if (states.every((s) => ['ready', 'failed', 'cancelled'].includes(s))) return;
    await sleep(500);
  }
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/**
 * `pnpm bench --load [--askers 50] [--seconds 60] [--load-set jsquad-dev]`: the real server (auth on,
 * the rate limits of the environment, default 120 asks per user and minute) on the dataset's documents,
 * then each asker — its own user and token — asks the dataset's questions in a loop for the duration,
 * waiting out a 429 as its Retry-After says; latency p50/p95, throughput, errors by status, and 429s.
 */
export interface LoadFigures {
  set: string;
  askers: number;
  seconds: number;
  documents: number;
  ingest_s: number;
  answers: number;
  answers_per_s: number;
  /** null when nothing was answered. */
  p50_ms: number | null;
  p95_ms: number | null;
  errors: number;
  errors_by_status: Record<string, number>;
  rate_limited: number;
}

export async function benchLoad(options: { askers: number; seconds: number; set: string; shared: string }): Promise<LoadFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pinpoint-load-'));
  const { base, child } = await startServer(dataDir);
  try {
    const dataset = loadDataset(join(options.shared, 'eval', options.set));
    const { collectionId, tokens } = await seedUsers(dataDir, base, options.askers);
    const t0 = performance.now();
    await uploadAndWait(base, tokens[0] as string, collectionId, dataset.files);
    const ingestSeconds = (performance.now() - t0) / 1000;
    console.log(`load: ${dataset.files.length} documents of ${options.set} ingested in ${ingestSeconds.toFixed(1)} s`);
    const latencies: number[] = [];
    const errors = new Map<number, number>();
    let limited = 0;
    const end = Date.now() + options.seconds * 1000;
    let next = 0;
    await Promise.all(
      tokens.map(async (token) => {
        while (Date.now() < end) {
          const q = dataset.questions[next++ % dataset.questions.length];
          const started = performance.now();
          const res = await fetch(`${base}/api/ask`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ question: q?.question ?? '' }),
          }).catch(() => null);
          await res?.arrayBuffer();
          if (res?.status === 429) {
            // a well-behaved client: the per-user limit answered, wait as it says and ask again
            limited++;
            await sleep(Math.max(1, Number(res.headers.get('retry-after') ?? 1)) * 1000);
            continue;
          }
          if (res?.status === 200) latencies.push(performance.now() - started);
          else errors.set(res?.status ?? 0, (errors.get(res?.status ?? 0) ?? 0) + 1);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const failed = [...errors.values()].reduce((a, b) => a + b, 0);
    console.log(
      `load: ${options.askers} authenticated askers for ${options.seconds} s: ${latencies.length} answers (${(latencies.length / options.seconds).toFixed(1)}/s), ` +
        `p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, errors ${failed}` +
        (failed ? ` (${[...errors].map(([s, n]) => `${s}×${n}`).join(', ')})` : '') +
        `, rate-limited ${limited} (429, each waited its Retry-After; PINPOINT_RATE_LIMIT_ASK per user and minute)`,
    );
    const r = (x: number) => Math.round(x * 10) / 10;
    return {
      set: options.set,
      askers: options.askers,
      seconds: options.seconds,
      documents: dataset.files.length,
      ingest_s: r(ingestSeconds),
      answers: latencies.length,
      answers_per_s: r(latencies.length / options.seconds),
      p50_ms: latencies.length ? r(pct(latencies, 50)) : null,
      p95_ms: latencies.length ? r(pct(latencies, 95)) : null,
      errors: failed,
      errors_by_status: Object.fromEntries([...errors].map(([s, n]) => [String(s), n])),
      rate_limited: limited,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
