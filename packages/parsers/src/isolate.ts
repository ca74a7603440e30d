import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Format, ParseOutput } from '@pinpoint/core';
import { createError, PinpointError } from '@pinpoint/core';
import type { ChildEntry } from './child-bundle.js';
import { childEntry } from './child-bundle.js';
import { checkedOutput, parseError } from './parse.js';
import type { PdfPages } from './pdf/parse-pdf.js';
import { assemblePdf } from './pdf/parse-pdf.js';
import type { ParseOptions } from './registry.js';

/**
 * Capabilities cannot cross a process boundary as functions: the parent sends this plain description
 * and the child builds the engines from the factory tables in capabilities.ts (one line per engine).
 */
export interface CapabilitySpec {
  /** `simplifiedChinese`: the reader of Simplified Chinese pages, PP-OCRv4 (default) or tesseract's chi_sim. */
  ocr?: { engine: string; langPath?: string; langs?: string[]; simplifiedChinese?: 'ppocr-v4' | 'tesseract' };
  /** `timeoutMs` + `timeoutMsPerMb` × MB of input bounds one conversion (see conversionTimeoutMs). */
  convert?: { engine: string; binary?: string; timeoutMs?: number; timeoutMsPerMb?: number };
}

/** What an isolated parse needs besides the bytes: plain data only (it crosses a process boundary). */
export interface IsolatedRequest {
  fileName: string;
  format: Format;
  capabilities?: CapabilitySpec;
  options?: ParseOptions;
  /** Pages the child may render and OCR at once (set by parseIsolated from the free cores). */
  pageConcurrency?: number;
}

export interface IsolationLimits {
  timeoutMs: number;
  maxOldSpaceMb: number;
  /** Aborting kills the child and rejects with PP_JOB_CANCELLED. */
  signal?: AbortSignal;
  /** Called with the child's pid once it runs (supervision, metrics). */
  onSpawn?: (pid: number) => void;
  /** Called with what this parse cost the child (memory, CPU) when it answers (bench, fuzz); for a PDF read by several children, their summed CPU and highest peak. */
  onUsage?: (memory: ParseUsage) => void;
  /**
   * Parser children this process runs at once, all parses together (default: the cores). A parse always
   * gets one; a long PDF reads its page ranges in more while fewer are busy.
   */
  maxChildren?: number;
  /** Pages of a PDF read per request when it is read in ranges (default 32); another child joins while twice that many are left. */
  rangePages?: number;
}

/** What one parse cost its process: RSS before it and the peak during it (Linux; 0 where unknown), CPU time. */
export interface ParseUsage {
  rssBefore: number;
  peakRss: number;
  /** CPU time (user + system) of the parse process during the parse; tools it runs (LibreOffice, tesseract) not included. */
  cpuMs: number;
}

/**
 * What a parser child is asked, one request at a time. A PDF is opened once per child (`pdf-open`, which
 * answers its page count), then read whole (`pdf-whole`, the parse output) or in page ranges
 * (`pdf-pages`, pages [first, end) for the parent to assemble), and closed.
 */
export type ChildRequest =
  | { kind: 'parse'; bytes: Uint8Array; request: IsolatedRequest }
  | { kind: 'pdf-open'; bytes: Uint8Array; request: IsolatedRequest }
  | { kind: 'pdf-pages'; first: number; end: number }
  | { kind: 'pdf-whole' }
  | { kind: 'pdf-close' };

export type ParseReply =
  | { ok: true; value: unknown }
  /** `detail`: the library's own text behind the failure, for the log and the job's diagnostics. */
  | { ok: false; code: ErrorCode; message: string; detail?: string };

export type ChildReply = ParseReply & {
  /** The child's heap after the request and a full GC when it looks large: how much a next parse would inherit. */
  heapUsed: number;
  usage: ParseUsage;
};

const childPath = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
/** Without a bundle the child runs TypeScript through tsx's loader, resolved from this package so the caller's cwd does not matter. */
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

function replyError(reply: Extract<ParseReply, { ok: false }>, part?: string): PinpointError {
  const message = part ? `${reply.message} (${part})` : reply.message;
  return new PinpointError(reply.code, message, reply.detail === undefined ? undefined : { detail: reply.detail });
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
/**
 * Warm children kept waiting at most: one per core and the spare. With two, two parses that ended
 * together killed a warm child, and the next parse started a new one (a second of CPU) in its place.
 */
const MAX_IDLE = availableParallelism() + 1;

/**
 * How children start, settled at the first spawn and kept: a child runs the code its parent loaded (a
 * source edited since is the next process's bundle), and later spawns read no manifest or source times.
 */
let started: ChildEntry | undefined;

function spawnWorker(maxOldSpaceMb: number): Worker {
  started ??= childEntry(childPath, packageRoot, tsxLoader);
  const entry = started;
  const child = fork(entry.script, [], {
    cwd: packageRoot,
    execArgv: [...entry.execArgv, `--max-old-space-size=${maxOldSpaceMb}`, '--expose-gc'],
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
 * Warm children (tsx and the parsers loaded): a spare started ahead while a core is free, and children
 * that answered a parse cleanly. A child that timed out, crashed, was cancelled or grew its heap is killed instead.
 */
const idle: Worker[] = [];

/** Children held by parses now, all parses of this process together. */
let busy = 0;
/** Parses that could use another child once one is free. */
const waiting = new Set<() => void>();

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
  busy++;
  // no spare while every core parses: its start-up would only slow them, and the next parse takes the child one frees
  if (idle.length === 0 && busy < availableParallelism()) {
    const spare = spawnWorker(maxOldSpaceMb);
    hold(spare, false);
    idle.push(spare);
  }
  return worker;
}

function release(worker: Worker, reusable: boolean): void {
  busy--;
  worker.served++;
  if (reusable && worker.served < MAX_PARSES_PER_CHILD && alive(worker.child) && idle.length < MAX_IDLE) {
    hold(worker, false);
    idle.push(worker);
  } else if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  for (const wake of [...waiting]) wake();
}

/** A PDF with more pages than this is read in ranges of this many pages, which further children may share. */
const RANGE_PAGES = 32;

function pageSpan(first: number, end: number): string {
  return end - first === 1 ? `page ${first + 1}` : `pages ${first + 1}–${end}`;
}

/**
 * One parse in parser children: every child it holds, one deadline and one cancellation for all of
 * them. The first failure kills them all and fails the parse.
 */
class IsolatedParse {
  readonly #request: IsolatedRequest;
  readonly #limits: IsolationLimits;
  readonly #maxOldSpaceMb: number;
  readonly #maxChildren: number;
  /** Children held, each with whether its last answer left it fit to serve another parse. */
  readonly #held = new Map<Worker, boolean>();
  readonly #usage: ParseUsage = { rssBefore: 0, peakRss: 0, cpuMs: 0 };
  #failure: PinpointError | undefined;
  /** Set when a child answered a whole-document request with an error of the document's own: the child is fine. */
  #documentError = false;
  #fail: (err: PinpointError) => void = () => {};
  readonly #failed: Promise<never>;

  constructor(request: IsolatedRequest, limits: IsolationLimits) {
    this.#request = request;
    this.#limits = limits;
    this.#maxOldSpaceMb = Math.max(16, Math.floor(limits.maxOldSpaceMb));
    this.#maxChildren = Math.max(1, Math.floor(limits.maxChildren ?? availableParallelism()));
    this.#failed = new Promise<never>((_, reject) => {
      this.#fail = (err) => {
        if (this.#failure) return;
        this.#failure = err;
        for (const worker of this.#held.keys()) this.#held.set(worker, false);
        this.#releaseAll();
        reject(err);
      };
    });
    this.#failed.catch(() => {});
  }

  async run(bytes: Uint8Array): Promise<ParseOutput> {
    const { fileName } = this.#request;
    const timer = setTimeout(
      () =>
        this.#fail(
          createError('PP_PARSE_TIMEOUT', `Parsing ${fileName} took longer than ${this.#limits.timeoutMs} ms and was stopped.`),
        ),
      this.#limits.timeoutMs,
    );
    const onAbort = (): void => this.#fail(createError('PP_JOB_CANCELLED', `Parsing ${fileName} was cancelled.`));
    this.#limits.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const parsing = this.#parse(bytes);
      parsing.catch(() => {}); // after a failure (timeout, cancel) its children's deaths reject it unobserved
      const output = await Promise.race([parsing, this.#failed]);
      this.#releaseAll();
      this.#limits.onUsage?.(this.#usage);
      return output;
    } catch (err) {
      const e = err instanceof PinpointError ? err : parseError(err, this.#request);
      if (!this.#failure && this.#documentError && this.#held.size === 1) {
        // a damaged file answered cleanly by its only child: that child serves the next parse, as after a success
        this.#failure = e;
        this.#releaseAll();
        this.#limits.onUsage?.(this.#usage);
        throw e;
      }
      this.#fail(e);
      throw this.#failure ?? e;
    } finally {
      clearTimeout(timer);
      this.#limits.signal?.removeEventListener('abort', onAbort);
    }
  }

  async #parse(bytes: Uint8Array): Promise<ParseOutput> {
    const first = this.#take();
    // the cores no other parse holds now, its own included: pages without a text layer are OCR'd that many at once
    const request = { ...this.#request, pageConcurrency: Math.max(1, this.#maxChildren - busy + 1) };
    if (request.format !== 'pdf' || bytes.byteLength === 0) {
      return (await this.#ask(first, { kind: 'parse', bytes, request })) as ParseOutput;
    }
    const numPages = (await this.#ask(first, { kind: 'pdf-open', bytes, request })) as number;
    const rangePages = Math.max(1, Math.floor(this.#limits.rangePages ?? RANGE_PAGES));
    if (numPages <= rangePages) return (await this.#ask(first, { kind: 'pdf-whole' })) as ParseOutput;
    return this.#parseInRanges(first, bytes, numPages, rangePages);
  }

  /**
   * Ranges of `rangePages` pages, taken in order by the first child and by any that join while at least
   * two ranges are left (starting a child costs about a second of CPU).
   */
  async #parseInRanges(first: Worker, bytes: Uint8Array, numPages: number, rangePages: number): Promise<ParseOutput> {
    const ranges: Array<[number, number]> = [];
    for (let p = 0; p < numPages; p += rangePages) ranges.push([p, Math.min(numPages, p + rangePages)]);
    const read: PdfPages[] = new Array(ranges.length);
    let next = 0;
    const readRanges = async (worker: Worker): Promise<void> => {
      while (next < ranges.length && !this.#failure) {
        const i = next++;
        const [from, end] = ranges[i] as [number, number];
        read[i] = (await this.#ask(worker, { kind: 'pdf-pages', first: from, end }, pageSpan(from, end))) as PdfPages;
      }
      await this.#ask(worker, { kind: 'pdf-close' });
    };
    const readers = [readRanges(first)];
    readers[0]?.catch(() => {});
    const pagesLeft = (): number => (next < ranges.length ? numPages - (ranges[next] as [number, number])[0] : 0);
    const grow = (): void => {
      while (!this.#failure && busy < this.#maxChildren && pagesLeft() >= 2 * rangePages) {
        const worker = this.#take();
        const reading = this.#ask(worker, { kind: 'pdf-open', bytes, request: this.#request }).then(() => readRanges(worker));
        reading.catch(() => {}); // the first failure fails the parse; those after it are not news
        readers.push(reading);
      }
    };
    waiting.add(grow);
    try {
      grow();
      // a child that joins while others read is pushed to `readers` before the last of them settles
      for (let settled = 0; settled < readers.length; settled++) await readers[settled];
    } finally {
      waiting.delete(grow);
    }
    const title = read[0]?.title;
    const pages: PdfPages = {
      pages: read.flatMap((r) => r.pages),
      diagnostics: read.flatMap((r) => r.diagnostics),
      ...(title ? { title } : {}),
    };
    const { fileName, format } = this.#request;
    return checkedOutput(assemblePdf(pages, { fileName, format, ocr: !!this.#request.capabilities?.ocr }), this.#request);
  }

  #take(): Worker {
    const worker = takeWorker(this.#maxOldSpaceMb);
    this.#held.set(worker, false);
    if (worker.child.pid !== undefined) this.#limits.onSpawn?.(worker.child.pid);
    return worker;
  }

  #releaseAll(): void {
    for (const [worker, reusable] of this.#held) release(worker, reusable);
    this.#held.clear();
  }

  /** One request to one child; its death (a crash, out of memory) rejects with a code that says which. */
  #ask(worker: Worker, message: ChildRequest, part?: string): Promise<unknown> {
    const { child } = worker;
    const what = part ? `${part} of ${this.#request.fileName}` : this.#request.fileName;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        child.off('message', onMessage);
        child.off('error', onError);
        child.off('close', onClose);
      };
      const onMessage = (reply: ChildReply): void => {
        done();
        if (this.#held.has(worker))
          this.#held.set(worker, reply.heapUsed < REUSE_HEAP_SHARE * worker.maxOldSpaceMb * 1024 * 1024);
        this.#usage.rssBefore ||= reply.usage.rssBefore;
        this.#usage.peakRss = Math.max(this.#usage.peakRss, reply.usage.peakRss);
        this.#usage.cpuMs += reply.usage.cpuMs;
        if (reply.ok) resolve(reply.value);
        else {
          // these requests leave no document open in the child, whatever they answered
          this.#documentError = message.kind === 'parse' || message.kind === 'pdf-open' || message.kind === 'pdf-whole';
          reject(replyError(reply, part));
        }
      };
      const onError = (err: Error): void => {
        done();
        reject(createError('PP_PARSE_CRASHED', 'The parser process could not be started; retrying may help.', err));
      };
      const onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
        done();
        reject(deathError(what, this.#limits, code, signal, worker.stderr.text));
      };
      if (!alive(child)) {
        reject(deathError(what, this.#limits, child.exitCode, child.signalCode, worker.stderr.text));
        return;
      }
      child.on('message', onMessage);
      child.on('error', onError);
      child.on('close', onClose);
      child.send(message);
    });
  }
}

/**
 * parseDocument in child processes with a time and memory limit: a hang, crash or memory blow-up fails
 * this parse only (PP_PARSE_TIMEOUT, PP_PARSE_CRASHED, PP_PARSE_MEMORY) and its children are killed;
 * errors thrown in a child keep their code. A child that answered cleanly serves later parses. A PDF of
 * more than `rangePages` (32) pages is read in page ranges, by more than one child while cores are free (each
 * child with the same limits; the time limit holds for the whole parse), and assembled here exactly as
 * one child would have; a range that fails fails the parse, its message naming the pages.
 */
export function parseIsolated(bytes: Uint8Array, request: IsolatedRequest, limits: IsolationLimits): Promise<ParseOutput> {
  return new IsolatedParse(request, limits).run(bytes);
}
