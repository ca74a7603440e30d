import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local HTTP servers that speak the Gemini REST and Ollama wire formats, for tests of the real
 * clients. Embeddings are a deterministic bag-of-words hash, so similar texts get similar vectors.
 */
export interface FakeServer {
  url: string;
  /** Every request: path and parsed JSON body. */
  requests: { path: string; body: Record<string, unknown> }[];
  /** Statuses to answer with before serving normally (e.g. [429] = one rate limit, then success). */
  failures: number[];
  close(): Promise<void>;
}

export type AnswerFn = (prompt: string) => string;

function hashEmbedding(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
    v[h % dimensions] = (v[h % dimensions] ?? 0) + 1;
  }
  return v;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

async function serve(handler: (path: string, body: Record<string, unknown>, res: ServerResponse) => void): Promise<FakeServer> {
  const state: FakeServer = { url: '', requests: [], failures: [], close: async () => {} };
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      const path = req.url ?? '/';
      state.requests.push({ path, body });
      const failure = state.failures.shift();
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: failure, message: 'injected failure', status: 'UNAVAILABLE' } }));
        return;
      }
      handler(path, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Splits a text into a few stream pieces, as providers do. */
function pieces(text: string): string[] {
  const out = text.match(/.{1,12}/gsu) ?? [''];
  return out;
}

function geminiPrompt(body: Record<string, unknown>): string {
  const contents = body.contents as { parts?: { text?: string }[] }[] | undefined;
  return (contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .map((p) => p.text ?? '')
    .join('\n');
}

function geminiEmbed(req: Record<string, unknown>): { values: number[] } {
  const text = ((req.content as { parts?: { text?: string }[] } | undefined)?.parts ?? []).map((p) => p.text ?? '').join(' ');
  return { values: hashEmbedding(text, Number(req.outputDimensionality ?? 768)) };
}

export function startFakeGemini(answer: AnswerFn = () => 'OK'): Promise<FakeServer> {
  return serve((path, body, res) => {
    const candidate = (text: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] });
    if (path.includes(':batchEmbedContents'))
      return json(res, { embeddings: ((body.requests as Record<string, unknown>[]) ?? []).map(geminiEmbed) });
    if (path.includes(':embedContent')) return json(res, { embedding: geminiEmbed(body) });
    if (path.includes(':generateContent')) return json(res, candidate(answer(geminiPrompt(body))));
    if (path.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of pieces(answer(geminiPrompt(body)))) res.write(`data: ${JSON.stringify(candidate(piece))}\r\n\r\n`);
      return res.end();
    }
    res.writeHead(404).end();
  });
}

export function startFakeOllama(dimensions: number, answer: AnswerFn = () => 'OK'): Promise<FakeServer> {
  return serve((path, body, res) => {
    if (path === '/api/embed') {
      const input = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
      return json(res, { model: body.model, embeddings: input.map((t) => hashEmbedding(t, dimensions)) });
    }
    if (path === '/api/chat') {
      const messages = body.messages as { content: string }[];
      const text = answer(messages.map((m) => m.content).join('\n'));
      if (body.stream === false)
        return json(res, { model: body.model, message: { role: 'assistant', content: text }, done: true });
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const piece of pieces(text))
        res.write(`${JSON.stringify({ model: body.model, message: { role: 'assistant', content: piece }, done: false })}\n`);
      return res.end(
        `${JSON.stringify({ model: body.model, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`,
      );
    }
    res.writeHead(404).end();
  });
}
