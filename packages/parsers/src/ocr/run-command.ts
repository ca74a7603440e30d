import { spawn } from 'node:child_process';
import type { PinpointError } from '@pinpoint/core';
import { createError } from '@pinpoint/core';

export interface CommandResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

export interface CommandOptions {
  /** What the tool is, for messages: "tesseract", "LibreOffice". */
  tool: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  cwd?: string;
  /** Variables set for this command only (through env(1); the caller's environment is left as is). */
  vars?: Record<string, string>;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function missingTool(binary: string, tool: string, cause?: unknown): PinpointError {
  return createError(
    'PP_DEPENDENCY_MISSING',
    `${tool} is not installed (${binary} not found); install it to parse this format.`,
    cause,
  );
}

/**
 * timeout(1) env(1) VARS binary ARGS: timeout(1) bounds the tool even when this process dies first (a killed
 * parse child leaves no orphan), env(1) sets per-command variables without touching our environment.
 */
function commandLine(binary: string, args: string[], options: CommandOptions): string[] {
  const vars = Object.entries(options.vars ?? {}).map(([k, v]) => `${k}=${v}`);
  const seconds = String(Math.ceil(options.timeoutMs / 1000) + 5);
  return ['-k', '5', `${seconds}s`, 'env', ...vars, binary, ...args];
}

/**
 * Runs an external tool in its own process group; the whole group is killed on timeout or abort
 * (LibreOffice forks soffice.bin). A missing binary is PP_DEPENDENCY_MISSING, a timeout PP_PARSE_TIMEOUT.
 */
export function runCommand(binary: string, args: string[], options: CommandOptions): Promise<CommandResult> {
  options.signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn('timeout', commandLine(binary, args, options), {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (error: unknown, result?: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) killGroup(child.pid);
      if (error) reject(error);
      else resolve(result as CommandResult);
    };
    const onAbort = () => finish(options.signal?.reason ?? createError('PP_JOB_CANCELLED', `${options.tool} was stopped.`));
    const timer = setTimeout(() => {
      finish(createError('PP_PARSE_TIMEOUT', `${options.tool} did not finish within ${Math.round(options.timeoutMs / 1000)} s.`));
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 8192) err += d.toString();
    });
    child.on('error', (e) =>
      finish(createError('PP_DEPENDENCY_MISSING', `${options.tool} could not be started; check that it is installed.`, e)),
    );
    child.on('close', (code) => {
      if (code === 127) finish(missingTool(binary, options.tool));
      else finish(undefined, { stdout: Buffer.concat(out), stderr: err, code });
    });
  });
}
