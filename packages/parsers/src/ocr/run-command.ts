import { spawn } from 'node:child_process';
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

/**
 * Runs an external tool in its own process group; the whole group is killed on timeout or abort
 * (LibreOffice forks soffice.bin). A missing binary is PP_DEPENDENCY_MISSING, a timeout PP_PARSE_TIMEOUT.
 */
export function runCommand(binary: string, args: string[], options: CommandOptions): Promise<CommandResult> {
  options.signal?.throwIfAborted();
  const vars = Object.entries(options.vars ?? {}).map(([k, v]) => `${k}=${v}`);
  // timeout(1) also bounds the tool when this process dies first (a killed parse child leaves no orphan running)
  const seconds = String(Math.ceil(options.timeoutMs / 1000) + 5);
  const argv = ['-k', '5', `${seconds}s`, 'env', ...vars, binary, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('timeout', argv, { cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      killGroup(child.pid);
      finish(() => reject(options.signal?.reason ?? createError('PP_JOB_CANCELLED', `${options.tool} was stopped.`)));
    };
    const timer = setTimeout(() => {
      killGroup(child.pid);
      finish(() =>
        reject(
          createError('PP_PARSE_TIMEOUT', `${options.tool} did not finish within ${Math.round(options.timeoutMs / 1000)} s.`),
        ),
      );
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 8192) err += d.toString();
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      const missing = e.code === 'ENOENT';
      const error = missing
        ? createError(
            'PP_DEPENDENCY_MISSING',
            `${options.tool} is not installed (${binary} not found); install it to parse this format.`,
            e,
          )
        : createError('PP_INTERNAL', `${options.tool} could not be started: ${e.message}`, e);
      finish(() => reject(error));
    });
    child.on('close', (code) => {
      if (code === 127) {
        finish(() =>
          reject(
            createError(
              'PP_DEPENDENCY_MISSING',
              `${options.tool} is not installed (${binary} not found); install it to parse this format.`,
            ),
          ),
        );
      } else finish(() => resolve({ stdout: Buffer.concat(out), stderr: err, code }));
    });
  });
}
