import { backupDataFolder } from './backup.js';
import type { CliConfig } from './config.js';
import { terminalProgress } from './data-folder.js';
import { restoreDataFolder } from './restore.js';
import { humanVerify, verifyDataFolder } from './verify.js';

const MB = 1024 * 1024;

/**
 * `backup DEST`, `restore SRC`, `verify`: the data folder's safety commands. Returns the exit code,
 * or null when the command is not one of them (or lacks its argument).
 */
export async function runMaintenance(cfg: CliConfig, print: (line: string) => void): Promise<number | null> {
  const progress = terminalProgress(!cfg.flags.json);
  const done = () => progress('');
  const target = cfg.args[0] ? cfg.resolvePath(cfg.args[0]) : undefined;
  switch (cfg.command) {
    case 'backup': {
      if (!target) return null;
      const s = await backupDataFolder(cfg.dataDir, target, progress).finally(done);
      print(
        cfg.flags.json
          ? JSON.stringify(s)
          : `backed up ${cfg.dataDir} to ${s.snapshot} in ${s.seconds.toFixed(1)} s: ${(s.bytes / MB).toFixed(1)} MB, ` +
              `${s.blobs.copied} blobs copied, ${s.blobs.reused} already there` +
              (s.corrupt.length > 0 ? `\n  ✗ not copied, bytes no longer match their sha256: ${s.corrupt.join(', ')}` : ''),
      );
      return s.corrupt.length > 0 ? 1 : 0;
    }
    case 'restore': {
      if (!target) return null;
      const s = await restoreDataFolder(target, cfg.dataDir, progress).finally(done);
      print(
        cfg.flags.json
          ? JSON.stringify(s)
          : `restored ${s.snapshot} into ${s.dataDir} in ${s.seconds.toFixed(1)} s: ${s.databases} databases, ${s.blobs} blobs` +
              (s.requeued > 0 ? `, ${s.requeued} interrupted jobs queued again` : ''),
      );
      return 0;
    }
    case 'verify': {
      const report = await verifyDataFolder(cfg, { repair: cfg.flags.repair, progress }).finally(done);
      print(cfg.flags.json ? JSON.stringify(report) : humanVerify(report));
      return report.problems.length > 0 ? 1 : 0;
    }
  }
  return null;
}
