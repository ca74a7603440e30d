import { freePort } from '@pinpoint/conformance';
import { recordResult } from '@pinpoint/results';
import { connectMcp, evalDoc, evalQuestion } from './mcp-test-client.js';
import { settle, startTestApp, uploadFiles } from './test-app.js';

/**
 * `pnpm --filter @pinpoint/api mcp-latency`: the same question through POST /api/ask and through
 * the MCP `ask` tool over /mcp (and `search`), on two jsquad files, on a real server on loopback;
 * prints p50/p95 of 40 calls each after 5 warm-up calls; `-- --record` also writes results/mcp/latency.json.
 */
const DOCS = ['000_梅雨.md', '001_グスタフ_マーラー.pdf'];
const N = 40;
const figures: Record<string, number> = {};

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = await startTestApp({ PINPOINT_PORT: String(port), PINPOINT_PUBLIC_URL: base });
try {
  const collection = await t.engine.ensureCollection('default');
  const uploaded = await uploadFiles(
    t.app,
    collection.collection_id,
    DOCS.map((name) => ({ name, bytes: evalDoc(name) })),
  );
  await settle(
    t.app,
    uploaded.map((u) => u.version.version_id),
  );
  await t.app.listen({ host: '127.0.0.1', port });
  const mcp = await connectMcp(base);
  const question = evalQuestion('a10336p10q0');
  const calls: [string, string, () => Promise<unknown>][] = [
    [
      'POST /api/ask',
      'api_ask',
      async () =>
        (
          await fetch(`${base}/api/ask`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ question }),
          })
        ).json(),
    ],
    ['MCP ask over /mcp', 'mcp_ask', () => mcp.call('ask', { question })],
    ['MCP search over /mcp', 'mcp_search', () => mcp.call('search', { query: question })],
  ];
  const at = (xs: number[], f: number): string => (xs[Math.floor(f * (xs.length - 1))] ?? 0).toFixed(1);
  process.stdout.write('| call | p50 ms | p95 ms |\n|---|---|---|\n');
  for (const [label, key, call] of calls) {
    for (let i = 0; i < 5; i++) await call();
    const ms: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      await call();
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    process.stdout.write(`| ${label} | ${at(ms, 0.5)} | ${at(ms, 0.95)} |\n`);
    figures[`${key}_p50_ms`] = Number(at(ms, 0.5));
    figures[`${key}_p95_ms`] = Number(at(ms, 0.95));
  }
  if (process.argv.includes('--record')) {
    const command = 'pnpm --filter @pinpoint/api mcp-latency -- --record';
    process.stdout.write(
      `recorded ${recordResult({ area: 'mcp', name: 'latency', command, metrics: { calls: N, ...figures } })}\n`,
    );
  }
  await mcp.client.close();
} finally {
  await t.close();
}
