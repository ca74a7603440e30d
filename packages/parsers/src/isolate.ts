import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Format, ParseOutput } from '@pinpoint/core';
import { createError, PinpointError } from '@pinpoint/core';
import type { ParseOptions } from './registry.js';

/**
 * Capabilities cannot cross a process boundary as functions: the parent sends this plain description
 * and the child builds the engines from the factory tables in capabilities.ts (one line per engine).
 */
export interface CapabilitySpec {
  ocr?: { engine: string; langPath?: string; langs?: string[] };
  /** `timeoutMs` + `timeoutMsPerMb` × MB of input bounds one conversion (see conversionTimeoutMs). */
  convert?: { engine: string; binary?: string; timeoutMs?: number; timeoutMsPerMb?: number };
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
  /** Called with what this parse cost the child (memory, CPU) when it answers (bench, fuzz). */
  onUsage?: (memory: ParseUsage) => void;
}

/** What one parse cost its process: RSS before it and the peak during it (Linux; 0 where unknown), CPU time. */
export interface ParseUsage {
  rssBefore: number;
  peakRss: number;
  /** CPU time (user + system) of the parse process during the parse; tools it runs (LibreOffice, tesseract) not included. */
  cpuMs: number;
}

export interface ChildRequest {
  bytes: Uint8Array;
  request: IsolatedRequest;
}

export type ParseReply =
  | { ok: true; output: ParseOutput }
  /** `detail`: the library's own text behind the failure, for the log and the job's diagnostics. */
  | { ok: false; code: ErrorCode; message: string; detail?: string };

export type ChildReply = ParseReply & {
  /** The child's heap after the parse and a full GC: how much a next parse would inherit. */
  heapUsed: number;
  usage: ParseUsage;
};

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

function replyError(reply: Extract<ParseReply, { ok: false }>): PinpointError {
  return new PinpointError(reply.code, reply.message, reply.detail === undefined ? undefined : { detail: reply.detail });
}

interface Worker {
  child: ChildProcess;
  maxOldSpaceMb: number;
  /** The child's recent stderr: how an out-of-memory death is told from other crashes. */
  stderr: { text: string };
  /** Parses this child has answered. */
  served: number;
}

/** A child answers at most this many parses, then a fresh one takes over (state never piles up). */
const MAX_PARSES_PER_CHILD = 250;
/** A child whose heap (collected first when over a third of its limit) holds more than this share is not reused. */
const REUSE_HEAP_SHARE = 0.4;
/** Warm children kept waiting at most. */
const MAX_IDLE = 2;

function spawnWorker(maxOldSpaceMb: number): Worker {
  const child = fork(childPath, [], {
    cwd: packageRoot,
    execArgv: ['--import', tsxLoader, `--max-old-space-size=${maxOldSpaceMb}`, '--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const stderr = { text: '' };
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.text = (stderr.text + chunk.toString('utf8')).slice(-8192);
  });
  return { child, maxOldSpaceMb, stderr, served: 0 };
}

/** Whether a process still runs and can receive a request. */
function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.connected;
}

/** Keeps (or drops) the process from holding this one open: a waiting child must not. */
function hold(worker: Worker, held: boolean): void {
  const handles = [worker.child, worker.child.channel, worker.child.stderr] as Array<
    { ref?: () => void; unref?: () => void } | null | undefined
  >;
  for (const h of handles) (held ? h?.ref : h?.unref)?.call(h);
}

/**
 * Warm children (tsx and the parsers loaded): a spare started ahead, and children that answered a
 * parse cleanly. A child that timed out, crashed, was cancelled or grew its heap is killed instead.
 */
const idle: Worker[] = [];

function takeWorker(maxOldSpaceMb: number): Worker {
  let worker: Worker | undefined;
  while (!worker && idle.length > 0) {
    const w = idle.pop() as Worker;
    if (w.maxOldSpaceMb === maxOldSpaceMb && alive(w.child)) worker = w;
    else w.child.kill('SIGKILL');
  }
  worker ??= spawnWorker(maxOldSpaceMb);
  worker.stderr.text = '';
  hold(worker, true);
  if (idle.length === 0) {
    const spare = spawnWorker(maxOldSpaceMb);
    hold(spare, false);
    idle.push(spare);
  }
  return worker;
}

function release(worker: Worker, reusable: boolean): void {
  worker.served++;
  if (reusable && worker.served < MAX_PARSES_PER_CHILD && alive(worker.child) && idle.length < MAX_IDLE) {
    hold(worker, false);
    idle.push(worker);
    return;
  }
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
}

/**
 * parseDocument in a child process with a time and memory limit: a hang, crash or memory blow-up fails
 * this parse only (PP_PARSE_TIMEOUT, PP_PARSE_CRASHED, PP_PARSE_MEMORY) and that child is killed;
 * errors thrown in the child keep their code. A child that answered cleanly serves later parses.
 */
export function parseIsolated(bytes: Uint8Array, request: IsolatedRequest, limits: IsolationLimits): Promise<ParseOutput> {
  return new Promise((resolve, reject) => {
    const worker = takeWorker(Math.max(16, Math.floor(limits.maxOldSpaceMb)));
    const { child } = worker;
    let settled = false;
    const finish = (fn: () => void, reusable = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      child.off('message', onMessage);
      child.off('error', onError);
      child.off('close', onClose);
      release(worker, reusable);
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
    const onMessage = (reply: ChildReply): void => {
      const reusable = reply.heapUsed < REUSE_HEAP_SHARE * worker.maxOldSpaceMb * 1024 * 1024;
      limits.onUsage?.(reply.usage);
      finish(() => (reply.ok ? resolve(reply.output) : reject(replyError(reply))), reusable);
    };
    const onError = (err: Error): void =>
      finish(() => reject(createError('PP_PARSE_CRASHED', 'The parser process could not be started; retrying may help.', err)));
    const onClose = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish(() => reject(deathError(request.fileName, limits, code, signal, worker.stderr.text)));
    child.on('message', onMessage);
    child.on('error', onError);
    child.on('close', onClose);
    if (child.pid !== undefined) limits.onSpawn?.(child.pid);
    const message: ChildRequest = { bytes, request };
    child.send(message);
  });
}
