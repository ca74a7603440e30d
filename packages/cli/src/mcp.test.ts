import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@pinpoint/conformance';
import type { Citation } from '@pinpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));
const doc = fileURLToPath(new URL('../../../../shared/eval/jsquad-dev/docs/000_梅雨.md', import.meta.url));
const MD = '000_梅雨.md';

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('pnpm pinpoint mcp: the MCP server over stdio (SDK client)', () => {
  let dir: string;
  let port: number;
  let client: Client;
  let stderr = '';
  const env = (): Record<string, string> => ({
    ...(process.env as Record<string, string>),
    PINPOINT_DATA_DIR: join(dir, 'data'),
    PINPOINT_PARSE_ISOLATE: 'false',
    PINPOINT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PINPOINT_LOG_LEVEL: 'warn',
  });
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-mcp-'));
    port = await freePort();
    await promisify(execFile)(process.execPath, [bin, 'ingest', doc, '--json'], { env: env(), cwd: dir });
    // the command the README gives an MCP client
    const transport = new StdioClientTransport({
      command: 'pnpm',
      args: ['-s', 'pinpoint', 'mcp'],
      cwd: repoRoot,
      env: env(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'pinpoint-test', version: '1.0.0' });
    await client.connect(transport);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the tools with their schemas; logs go to stderr only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'get_document', 'list_collections', 'open_citation', 'search']);
    expect(tools.find((t) => t.name === 'ask')?.inputSchema).toMatchObject({
      required: ['question'],
      additionalProperties: false,
    });
    expect(stderr).toContain('serving');
  });

  it('answers with citations from the data folder, refuses what it does not cover, and reports bad arguments', async () => {
    const answer = await call('ask', { question: '春が終わりに差し掛かる頃に南シナ海付近にある気団は何か？' });
    const a = answer.structuredContent as { refused: boolean; citations: Citation[] };
    expect(a.refused).toBe(false);
    expect(a.citations[0]).toMatchObject({ file: MD, anchor: { kind: 'text' }, precision: 'exact' });

    const refusal = await call('ask', {
      question: 'What is the torque specification for the rear axle bolts of a 1987 tractor?',
    });
    expect(refusal.structuredContent).toMatchObject({ refused: true, citations: [] });

    const bad = await call('search', { query: '' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^PP_VALIDATION: .*query/);
    const missing = await call('get_document', { document_id: 'doc_nope' });
    expect(text(missing)).toMatch(/^PP_NOT_FOUND: /);
    // still serving
    const hits = (await call('search', { query: '梅雨前線', k: 2 })).structuredContent as { hits: { file: string }[] };
    expect(hits.hits.map((h) => h.file)).toEqual([MD, MD]);
  });

  it('with auth on acts as the user of PINPOINT_TOKEN: another user sees none of the collection', async () => {
    const pinpoint = (args: string[], input?: string) =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(process.execPath, [bin, ...args], { env: env(), cwd: dir }, (err, stdout) =>
          err ? reject(err) : resolve(stdout),
        );
        if (input !== undefined) child.stdin?.end(input);
      });
    await pinpoint(['users', 'add', 'bob@x.test', '--password-stdin'], 'correct horse battery\n');
    const { token } = JSON.parse(await pinpoint(['tokens', 'create', 'bob@x.test', '--json'])) as { token: string };
    const mine = (await call('ask', { question: '春が終わりに差し掛かる頃に南シナ海付近にある気団は何か？' }))
      .structuredContent as {
      citations: Citation[];
    };
    const bob = new Client({ name: 'pinpoint-test', version: '1.0.0' });
    await bob.connect(
      new StdioClientTransport({
        command: 'pnpm',
        args: ['-s', 'pinpoint', 'mcp'],
        cwd: repoRoot,
        env: { ...env(), PINPOINT_AUTH: 'on', PINPOINT_TOKEN: token },
        stderr: 'ignore',
      }),
    );
    try {
      const bobCall = async (name: string, args: Record<string, unknown>) =>
        (await bob.callTool({ name, arguments: args })) as CallToolResult;
      expect((await bobCall('list_collections', {})).structuredContent).toEqual({ collections: [] });
      expect(
        (await bobCall('ask', { question: '春が終わりに差し掛かる頃に南シナ海付近にある気団は何か？' })).structuredContent,
      ).toMatchObject({
        refused: true,
        citations: [],
      });
      expect(text(await bobCall('get_document', { document_id: mine.citations[0]?.document_id }))).toMatch(/^PP_NOT_FOUND: /);
      expect(text(await bobCall('open_citation', { citation: mine.citations[0] }))).toMatch(/^PP_NOT_FOUND: /);
    } finally {
      await bob.close();
    }
    // auth on without a token: the command refuses to start, naming the variable
    const refused = await promisify(execFile)(process.execPath, [bin, 'mcp'], {
      env: { ...env(), PINPOINT_AUTH: 'on' },
      cwd: dir,
    }).catch((e: { stderr: string; code: number }) => e);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toMatch(/PP_UNAUTHORIZED: .*PINPOINT_TOKEN/);
  }, 120_000);

  it('open_citation links are signed as the server signs them: the server on the same folder serves the download', async () => {
    const a = (await call('ask', { question: '春が終わりに差し掛かる頃に南シナ海付近にある気団は何か？' })).structuredContent as {
      citations: Citation[];
    };
    const link = (await call('open_citation', { citation: a.citations[0] })).structuredContent as {
      reader_url: string;
      download_url: string;
    };
    expect(link.reader_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#/cite\\?v=`));
    const server: ChildProcess = spawn(
      process.execPath,
      [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'services/api/src/main.ts'],
      {
        cwd: repoRoot,
        env: { ...env(), PINPOINT_PORT: String(port), PINPOINT_WORKER: 'false' },
        stdio: 'ignore',
      },
    );
    try {
      let res: Response | undefined;
      for (let i = 0; i < 300 && !res; i++) {
        res = await fetch(link.download_url).catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      expect(res?.status).toBe(200);
      const bytes = new Uint8Array(await (res as Response).arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(readFileSync(doc)).digest('hex'));
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);
});
