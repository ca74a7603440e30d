import { performance } from 'node:perf_hooks';
import { openEmbeddedVectorStore } from './embedded-store.js';

/**
 * Measures exact scan vs. HNSW query latency and HNSW recall@10 at growing sizes, to place the
 * embedded store's annThreshold. Run: npx tsx packages/vectors/src/bench.ts [dims] [sizes…]
 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9;
    s = Math.imul(s ^ (s >>> 13), 3266489909) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** Points on a 24-dimensional latent subspace plus small noise: embeddings have low intrinsic dimension. */
function clustered(n: number, dims: number, rand: () => number): Float32Array[] {
  const basis = Array.from({ length: 24 }, () => Float32Array.from({ length: dims }, rand));
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dims }, () => rand() * 0.05);
    for (const b of basis) {
      const w = rand();
      for (let i = 0; i < dims; i++) v[i] = (v[i] ?? 0) + w * (b[i] ?? 0);
    }
    return v;
  });
}

async function measure(n: number, dims: number): Promise<string> {
  const rand = rng(n);
  const vectors = clustered(n, dims, rand);
  const queries = clustered(30, dims, rng(n + 1)).map((q, i) => q.map((x, j) => x + (vectors[i * 7]?.[j] ?? 0)));
  const records = vectors.map((vector, i) => ({
    chunk_id: `c${i}`,
    version_id: 'v',
    document_id: 'd',
    collection_id: 'c',
    vector,
  }));
  const exact = openEmbeddedVectorStore({ path: ':memory:', dimensions: dims, annThreshold: Number.POSITIVE_INFINITY });
  const ann = openEmbeddedVectorStore({ path: ':memory:', dimensions: dims, annThreshold: 0 });
  await exact.upsert(records);
  await ann.upsert(records);
  let t = performance.now();
  const truth = [];
  for (const q of queries) truth.push(await exact.search(q, { k: 10 }));
  const exactMs = (performance.now() - t) / queries.length;
  t = performance.now();
  await ann.search(queries[0] as Float32Array, { k: 10 });
  const buildMs = performance.now() - t;
  t = performance.now();
  let found = 0;
  for (const [i, q] of queries.entries()) {
    const got = new Set((await ann.search(q, { k: 10 })).map((h) => h.chunk_id));
    found += (truth[i] ?? []).filter((h) => got.has(h.chunk_id)).length;
  }
  const annMs = (performance.now() - t) / queries.length;
  await exact.close();
  await ann.close();
  return `| ${n} | ${dims} | ${exactMs.toFixed(2)} | ${annMs.toFixed(2)} | ${(found / (queries.length * 10)).toFixed(3)} | ${(buildMs / 1000).toFixed(1)} |`;
}

const [dimsArg, ...sizes] = process.argv.slice(2);
const dims = Number(dimsArg ?? 384);
console.log('| vectors | dims | exact ms/query | HNSW ms/query | HNSW recall@10 | HNSW build s |');
console.log('|---|---|---|---|---|---|');
for (const n of sizes.length ? sizes.map(Number) : [1000, 5000, 20000, 50000]) console.log(await measure(n, dims));
