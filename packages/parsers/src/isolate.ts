import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Format, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { CapabilitySpec } from './capabilities.js';
import type { ParseOptions } from './registry.js';

/** What an isolated parse needs besides the bytes: plain data only (it crosses a process boundary). */
export interface IsolatedRequest {
  fileName: string;
  format: Format;
  capabilities?: CapabilitySpec;
  options?: ParseOptions;
}

export interface IsolationLimits {
  timeoutMs: number;
  maxOldSpaceMb: number;
  /** Aborting kills the child and rejects with PP_JOB_CANCELLED. */
  signal?: AbortSignal;
  /** Called with the child's pid once it runs (supervision, metrics). */
  onSpawn?: (pid: number) => void;
}

export interface ChildRequest {
  bytes: Uint8Array;
  request: IsolatedRequest;
}

export type ChildReply = { ok: true; output: ParseOutput } | { ok: false; code: ErrorCode; message: string };

const childPath = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
/** The child runs TypeScript through tsx's loader, resolved from this package so the caller's cwd does not matter. */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function deathError(
  fileName: string,
  limits: IsolationLimits,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
) {
  if (/heap out of memory|Reached heap limit|Allocation failed|out of memory/i.test(stderr)) {
    return createError(
      'PP_PARSE_MEMORY',
      `Parsing ${fileName} needed more than ${limits.maxOldSpaceMb} MB of memory and was stopped.`,
    );
  }
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  return createError('PP_PARSE_CRASHED', `The parser process for ${fileName} died unexpectedly (${how}); retrying may help.`);
}

/**
 * parseDocument in a child process with a time and memory limit: a hang, crash or memory blow-up fails
 * this parse only (PP_PARSE_TIMEOUT, PP_PARSE_CRASHED, PP_PARSE_MEMORY); errors thrown in the child keep their code.
 */
export function parseIsolated(bytes: Uint8Array, request: IsolatedRequest, limits: IsolationLimits): Promise<ParseOutput> {
  return new Promise((resolve, reject) => {
    const child = fork(childPath, [], {
      cwd: packageRoot,
      execArgv: ['--import', tsxLoader, `--max-old-space-size=${Math.max(16, Math.floor(limits.maxOldSpaceMb))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fn();
    };
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          createError('PP_PARSE_TIMEOUT', `Parsing ${request.fileName} took longer than ${limits.timeoutMs} ms and was stopped.`),
        ),
      );
    }, limits.timeoutMs);
    const onAbort = (): void =>
      finish(() => reject(createError('PP_JOB_CANCELLED', `Parsing ${request.fileName} was cancelled.`)));
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-8192);
    });
    child.on('message', (reply: ChildReply) => {
      finish(() => (reply.ok ? resolve(reply.output) : reject(createError(reply.code, reply.message))));
    });
    child.on('error', (err) =>
      finish(() => reject(createError('PP_PARSE_CRASHED', `The parser process could not run: ${err.message}`, err))),
    );
    child.on('close', (code, signal) => finish(() => reject(deathError(request.fileName, limits, code, signal, stderr))));
    if (child.pid !== undefined) limits.onSpawn?.(child.pid);
    const message: ChildRequest = { bytes, request };
    child.send(message);
  });
}
