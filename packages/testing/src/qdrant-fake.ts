import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server implementing the part of Qdrant's REST API the adapter calls (collections,
 * payload indexes, upsert, delete by filter, the Query API with prefetch + RRF fusion), closely
 * enough to test the adapter through the real @qdrant/js-client-rest client.
 */
type Sparse = { indices: number[]; values: number[] };
type Point = { id: string; vector: Record<string, number[] | Sparse>; payload: Record<string, unknown> };
type Condition = { key: string; match: { any?: unknown[]; value?: unknown } };
type Query = {
  query?: unknown;
  using?: string;
  limit?: number;
  filter?: { must?: Condition[] };
  prefetch?: Query[];
  with_vector?: boolean | string[];
};
type Collection = { dense: Record<string, number>; sparse: Set<string>; points: Map<string, Point> };

export interface FakeQdrant {
  url: string;
  calls: string[];
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function matches(point: Point, filter: Query['filter']): boolean {
  return (filter?.must ?? []).every((c) => {
    const v = point.payload[c.key];
    return c.match.any ? c.match.any.includes(v) : c.match.value === v;
  });
}

function denseScores(col: Collection, using: string, q: number[], pts: Point[]): [Point, number][] {
  if (col.dense[using] !== q.length)
    throw new HttpError(400, `Wrong input: Vector dimension error: expected dim: ${col.dense[using]}, got ${q.length}`);
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return pts.map((p) => {
    const v = p.vector[using] as number[];
    return [p, v.reduce((s, x, i) => s + x * (q[i] ?? 0), 0) / (norm(v) * norm(q))];
  });
}

function sparseScores(col: Collection, using: string, q: Sparse, pts: Point[]): [Point, number][] {
  const all = [...col.points.values()].filter((p) => p.vector[using]);
  const df = (id: number) => all.filter((p) => (p.vector[using] as Sparse).indices.includes(id)).length;
  const idf = new Map(q.indices.map((id) => [id, Math.log(1 + (all.length - df(id) + 0.5) / (df(id) + 0.5))]));
  return pts
    .filter((p) => p.vector[using])
    .map((p): [Point, number] => {
      const v = p.vector[using] as Sparse;
      const score = q.indices.reduce((s, id, i) => {
        const at = v.indices.indexOf(id);
        return at < 0 ? s : s + (q.values[i] ?? 0) * (v.values[at] ?? 0) * (idf.get(id) ?? 0);
      }, 0);
      return [p, score];
    })
    .filter(([, s]) => s > 0);
}

function runQuery(col: Collection, q: Query): [Point, number][] {
  const pts = [...col.points.values()].filter((p) => matches(p, q.filter));
  const limit = q.limit ?? 10;
  let scored: [Point, number][];
  if (q.prefetch && (q.query as { fusion?: string })?.fusion === 'rrf') {
    const fused = new Map<string, [Point, number]>();
    for (const sub of q.prefetch) {
      runQuery(col, sub).forEach(([p], rank) => {
        const prev = fused.get(p.id)?.[1] ?? 0;
        fused.set(p.id, [p, prev + 1 / (rank + 1 + 2)]);
      });
    }
    scored = [...fused.values()].filter(([p]) => matches(p, q.filter));
  } else if (Array.isArray(q.query)) scored = denseScores(col, q.using ?? '', q.query as number[], pts);
  else if ((q.query as Sparse)?.indices) scored = sparseScores(col, q.using ?? '', q.query as Sparse, pts);
  else throw new HttpError(400, 'unsupported query');
  return scored.sort((a, b) => b[1] - a[1]).slice(0, limit);
}

function handle(cols: Map<string, Collection>, method: string, path: string, body: Record<string, unknown>): unknown {
  if (path.replace(/\?.*$/, '') === '/collections' && method === 'GET')
    return { collections: [...cols.keys()].map((name) => ({ name })) };
  const m = path.match(/^\/collections\/([^/?]+)(\/[^?]*)?/);
  if (!m) throw new HttpError(404, 'not found');
  const name = decodeURIComponent(m[1] ?? '');
  const rest = m[2] ?? '';
  if (rest === '/exists') return { exists: cols.has(name) };
  if (rest === '' && method === 'PUT') {
    if (cols.has(name)) throw new HttpError(409, `Collection ${name} already exists`);
    const vectors = (body.vectors ?? {}) as Record<string, { size: number }>;
    cols.set(name, {
      dense: Object.fromEntries(Object.entries(vectors).map(([k, v]) => [k, v.size])),
      sparse: new Set(Object.keys(body.sparse_vectors ?? {})),
      points: new Map(),
    });
    return true;
  }
  if (rest === '' && method === 'DELETE') return cols.delete(name);
  const col = cols.get(name);
  if (!col) throw new HttpError(404, `Collection ${name} not found`);
  if (rest === '/index') return { operation_id: 0, status: 'completed' };
  if (rest === '/points' && method === 'PUT') {
    for (const p of body.points as Point[]) col.points.set(p.id, p);
    return { operation_id: 1, status: 'completed' };
  }
  if (rest === '/points/delete') {
    for (const p of [...col.points.values()]) if (matches(p, body.filter as Query['filter'])) col.points.delete(p.id);
    return { operation_id: 2, status: 'completed' };
  }
  const answer = (q: Query) => ({
    points: runQuery(col, q).map(([p, score]) => ({
      id: p.id,
      version: 1,
      score,
      payload: p.payload,
      ...(q.with_vector ? { vector: p.vector } : {}),
    })),
  });
  if (rest === '/points/count')
    return { count: [...col.points.values()].filter((p) => matches(p, body.filter as Query['filter'])).length };
  if (rest === '/points/query') return answer(body as Query);
  if (rest === '/points/query/batch') return (body.searches as Query[]).map(answer);
  throw new HttpError(404, 'not found');
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const cols = new Map<string, Collection>();
  const calls: string[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = req.url ?? '/';
    calls.push(`${req.method} ${path.split('?')[0]}`);
    try {
      const result = handle(cols, req.method ?? 'GET', path, raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
      reply(res, 200, { result, status: 'ok', time: 0.001 });
    } catch (err) {
      reply(res, err instanceof HttpError ? err.status : 500, { status: { error: (err as Error).message }, time: 0 });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
