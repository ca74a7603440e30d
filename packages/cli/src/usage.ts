import { parseArgs } from 'node:util';
import { PinpointError } from '@pinpoint/core';

/** One command's help: its usage lines, what it does, and its options. */
export interface CommandUsage {
  usage: string[];
  about: string;
  options?: [flag: string, about: string][];
}

const COLLECTION: [string, string] = ['--collection NAME', 'the collection to work on (default: default)'];
const JSON_LINES: [string, string] = ['--json', 'one JSON object per line instead of text'];

/**
 * Every command's help, one entry per command: a new command adds its entry here and `pinpoint
 * help`, `pinpoint <command> --help` and the usage shown on a wrong option follow.
 */
/** Every option of the command line (node:util parseArgs), whatever the command. */
export const CLI_OPTIONS = {
  json: { type: 'boolean', default: false },
  'show-sources': { type: 'boolean', default: false },
  collection: { type: 'string', default: 'default' },
  'data-dir': { type: 'string' },
  out: { type: 'string' },
  record: { type: 'boolean', default: false },
  repair: { type: 'boolean', default: false },
  mode: { type: 'string' },
  k: { type: 'string', default: '10' },
  'min-answered': { type: 'string', multiple: true, default: [] as string[] },
  'offtopic-from': { type: 'string' },
  note: { type: 'string' },
  offtopic: { type: 'string', multiple: true, default: [] as string[] },
  floor: { type: 'string', multiple: true, default: [] as string[] },
  admin: { type: 'boolean', default: false },
  'password-stdin': { type: 'boolean', default: false },
  name: { type: 'string' },
  role: { type: 'string', default: 'viewer' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const COMMANDS: Record<string, CommandUsage> = {
  ingest: {
    usage: ['pinpoint ingest <files…> [--json] [--collection NAME]'],
    about: 'Adds files to a collection and waits until each is ready or failed (exit 0 either way).',
    options: [JSON_LINES, COLLECTION],
  },
  ask: {
    usage: ['pinpoint ask "question" [--show-sources] [--json] [--collection NAME]'],
    about: 'Answers a question from the collection’s documents, each claim citing its exact place, or refuses.',
    options: [['--show-sources', 'list the passages the answer considered'], JSON_LINES, COLLECTION],
  },
  search: {
    usage: ['pinpoint search "query" [--json] [--k N] [--collection NAME]'],
    about: 'Lists the passages that match a query, with per-stage ranks and scores.',
    options: [JSON_LINES, ['--k N', 'how many passages (default 10)'], COLLECTION],
  },
  status: {
    usage: ['pinpoint status [--json]'],
    about: 'Shows the collections, documents, versions and ingestion jobs of the data folder.',
    options: [JSON_LINES],
  },
  tables: {
    usage: ['pinpoint tables <files…> [--json]'],
    about: 'Prints the tables found in each file (PDF pages, sheets, CSV, HTML, DOCX, slides), cell by cell with their boxes.',
    options: [['--json', 'one table a line: file, page_index, table_index, bbox, rows, cells']],
  },
  text: {
    usage: ['pinpoint text <files…> [--json]'],
    about: 'Prints the text each file is indexed with, page by page, and the words with their boxes (OCR words on scans).',
    options: [['--json', 'one page a line: file, page_index, page_width, page_height, unit, text, words [{text, bbox}]']],
  },
  backup: {
    usage: ['pinpoint backup DEST [--json]'],
    about: 'Backs up the data folder while the server runs; into the same DEST again, copies only new originals.',
    options: [['--json', 'a summary as one JSON object']],
  },
  restore: {
    usage: ['pinpoint restore SRC --data-dir DIR [--json]'],
    about: 'Restores a backup into a new or empty data folder, after checking its manifest.',
    options: [['--json', 'a summary as one JSON object']],
  },
  verify: {
    usage: ['pinpoint verify [--repair] [--json]'],
    about: 'Checks originals, indexes, databases and jobs of the data folder; exits 1 naming what is wrong.',
    options: [
      ['--repair', 'rebuild the indexes from stored source maps and re-queue stuck jobs (never deletes an original)'],
      ['--json', 'the report as one JSON object'],
    ],
  },
  eval: {
    usage: ['pinpoint eval <dataset-dir> [--out run.json] [--record [--note TEXT]] [--mode MODE] [--offtopic-from OTHER-DIR]'],
    about: 'Runs an evaluation set (docs/ + questions.jsonl) through a fresh engine and prints its metrics.',
    options: [
      ['--out FILE', 'write the whole run (every question, every metric) as JSON'],
      ['--record', 'write the figures as results/eval/<set>.json for the benchmarks page'],
      ['--note TEXT', 'with --record: a line the benchmarks page shows under the figures (how they vary, what limits them)'],
      ['--mode MODE', 'lexical (default), dense, hybrid or hybrid+rerank'],
      ['--offtopic-from DIR', 'also ask another set’s questions of these documents, as off-topic ones'],
      ['--json', 'print the metrics as one JSON object'],
    ],
  },
  calibrate: {
    usage: [
      'pinpoint calibrate <dataset-dir…> --out gate.json [--mode MODE] [--min-answered 0.91] [--min-answered SET=0.85 …] [--offtopic BASE=OTHER …] [--floor SET=0.8 …]',
    ],
    about: 'Fits the refusal gate on evaluation sets and writes it for PINPOINT_GATE_FILE.',
    options: [
      ['--out FILE', 'the gate file to write (required)'],
      ['--mode MODE', 'lexical (default), dense, hybrid or hybrid+rerank'],
      ['--min-answered SHARE', 'each set keeps at least this share of its answerable questions answered'],
      ['--min-answered SET=SHARE', 'that set’s own share instead (repeatable)'],
      ['--offtopic BASE=OTHER', 'add OTHER’s questions on BASE’s documents as off-topic ones (repeatable)'],
      ['--floor SET=SHARE', 'balanced accuracy a set keeps when the fit can (repeatable)'],
    ],
  },
  mcp: {
    usage: ['pinpoint mcp'],
    about: 'Serves the MCP tools (search, ask, open a citation) on stdin/stdout for agents.',
  },
  users: {
    usage: ['pinpoint users add EMAIL [--admin] --password-stdin', 'pinpoint users list [--json]', 'pinpoint users remove EMAIL'],
    about: 'Manages the people who can sign in (PINPOINT_AUTH=on).',
    options: [
      ['--admin', 'users add: an instance administrator'],
      ['--password-stdin', 'users add: read the password from standard input'],
    ],
  },
  tokens: {
    usage: ['pinpoint tokens create EMAIL [--name N] [--json]', 'pinpoint tokens revoke ID'],
    about: 'Creates an API token for a user’s scripts and agents (shown once), or revokes one.',
    options: [['--name N', 'tokens create: a name to recognise the token by']],
  },
  invite: {
    usage: ['pinpoint invite EMAIL [--collection NAME] [--role viewer|editor|admin] [--json]'],
    about:
      'Prints a one-time link that makes EMAIL a member of the collection (no e-mail is sent: give the link yourself). Set PINPOINT_PUBLIC_URL to the address people open the app at.',
    options: [COLLECTION, ['--role ROLE', 'viewer (default), editor or admin'], ['--json', 'print { url, invitation } as JSON']],
  },
  feedback: {
    usage: ['pinpoint feedback export'],
    about: 'Prints the answers users judged, as evaluation questions (questions.jsonl) on stdout.',
  },
  help: {
    usage: ['pinpoint help [command]', 'pinpoint <command> --help'],
    about: 'Shows this help, or one command’s.',
  },
};

const HEADER = 'pinpoint — ask your files, get answers that point at the exact place';
const FOOTER = `Every command: --data-dir DIR (or PINPOINT_DATA_DIR, default ./data), the data folder the server uses too.
Run \`pinpoint help <command>\` for one command's options.`;

/** All commands, one usage line each (the first of each entry). */
export function usageText(): string {
  const lines = Object.values(COMMANDS).flatMap((c) => c.usage.map((u) => `  ${u}`));
  return `${HEADER}\n\n${lines.join('\n')}\n\n${FOOTER}`;
}

/** One command's help: usage, what it does, options. */
export function commandHelp(name: string): string {
  const c = COMMANDS[name];
  if (!c) return usageText();
  const width = Math.max(0, ...(c.options ?? []).map(([flag]) => flag.length));
  const options = (c.options ?? []).map(([flag, about]) => `  ${flag.padEnd(width)}  ${about}`);
  const parts = [`Usage:\n${c.usage.map((u) => `  ${u}`).join('\n')}`, c.about];
  if (options.length > 0) parts.push(`Options:\n${options.join('\n')}`);
  parts.push('  --data-dir DIR  the data folder (or PINPOINT_DATA_DIR, default ./data)');
  return parts.join('\n\n');
}

/** A wrong command line: PP_VALIDATION, printed with the usage that would have been right (exit 2). */
export class UsageError extends PinpointError {
  readonly usage: string;
  constructor(message: string, command: string | undefined) {
    super('PP_VALIDATION', message);
    this.usage =
      command && COMMANDS[command] ? `Usage:\n${COMMANDS[command].usage.map((u) => `  ${u}`).join('\n')}` : usageText();
  }
}

/**
 * What `argv` asks help for: `--help`/`-h` anywhere, or `help [command]`. Returns the text to
 * print, or null when it is not a help request. An unknown command is a UsageError.
 */
export function helpRequest(argv: readonly string[]): string | null {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: CLI_OPTIONS,
    allowPositionals: true,
    strict: false,
  });
  const [first, second] = positionals;
  const asked = first === 'help' ? (second ?? null) : values.help ? (first ?? null) : undefined;
  if (asked === undefined) return null;
  if (asked === null) return usageText();
  if (!COMMANDS[asked]) throw new UsageError(`Unknown command '${asked}'.`, undefined);
  return commandHelp(asked);
}
