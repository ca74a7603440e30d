import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Format, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { ParseOptions } from './registry.js';

/**
 * Capabilities cannot cross a process boundary as functions: the parent sends this plain description
 * and the child builds the engines from the factory tables in capabilities.ts (one line per engine).
 */
export interface CapabilitySpec {
  ocr?: { engine: string; langPath?: string; langs?: string[] };
  convert?: { engine: string; binary?: string };
}

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

interface Worker {
  child: ChildProcess;
  maxOldSpaceMb: number;
  /** The child's recent stderr: how an out-of-memory death is told from other crashes. */
  stderr: { text: string };
}

function spawnWorker(maxOldSpaceMb: number): Worker {
  const child = fork(childPath, [], {
    cwd: packageRoot,
    execArgv: ['--import', tsxLoader, `--max-old-space-size=${maxOldSpaceMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const stderr = { text: '' };
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.text = (stderr.text + chunk.toString('utf8')).slice(-8192);
  });
  return { child, maxOldSpaceMb, stderr };
}

/** Whether a process still runs and can receive a request. */
function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.connected;
}

/** Keeps (or drops) the process from holding this one open: a waiting spare must not. */
function hold(worker: Worker, held: boolean): void {
  const handles = [worker.child, worker.child.channel, worker.child.stderr] as Array<
    { ref?: () => void; unref?: () => void } | null | undefined
  >;
  for (const h of handles) (held ? h?.ref : h?.unref)?.call(h);
}

/**
 * One spare child, started ahead (tsx and the parsers loaded) so the next parse does not wait for
 * start-up. Each child still serves exactly one parse and then exits.
 */
let spare: Worker | undefined;

function takeWorker(maxOldSpaceMb: number): Worker {
  const candidate = spare;
  spare = undefined;
  let worker = candidate;
  if (!worker || worker.maxOldSpaceMb !== maxOldSpaceMb || !alive(worker.child)) {
    if (worker && alive(worker.child)) worker.child.kill('SIGKILL');
    worker = spawnWorker(maxOldSpaceMb);
  }
  hold(worker, true);
  spare = spawnWorker(maxOldSpaceMb);
  hold(spare, false);
  return worker;
}

/**
 * parseDocument in a child process with a time and memory limit: a hang, crash or memory blow-up fails
 * this parse only (PP_PARSE_TIMEOUT, PP_PARSE_CRASHED, PP_PARSE_MEMORY); errors thrown in the child keep their code.
 */
export function parseIsolated(bytes: Uint8Array, request: IsolatedRequest, limits: IsolationLimits): Promise<ParseOutput> {
  return new Promise((resolve, reject) => {
    const worker = takeWorker(Math.max(16, Math.floor(limits.maxOldSpaceMb)));
    const { child } = worker;
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
    child.on('message', (reply: ChildReply) => {
      finish(() => (reply.ok ? resolve(reply.output) : reject(createError(reply.code, reply.message))));
    });
    child.on('error', (err) =>
      finish(() => reject(createError('PP_PARSE_CRASHED', `The parser process could not run: ${err.message}`, err))),
    );
    child.on('close', (code, signal) =>
      finish(() => reject(deathError(request.fileName, limits, code, signal, worker.stderr.text))),
    );
    if (child.pid !== undefined) limits.onSpawn?.(child.pid);
    const message: ChildRequest = { bytes, request };
    child.send(message);
  });
}
