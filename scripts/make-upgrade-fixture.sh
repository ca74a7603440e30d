#!/usr/bin/env bash
# Builds the upgrade fixture: a data folder written by an earlier release (the commit of 1 Dec 2026),
# with that release's answers to a few questions, for packages/cli/src/upgrade.test.ts.
#   bash scripts/make-upgrade-fixture.sh [COMMIT [NAME]]
# (the fixtures: d3939fb0 data-2026-12-01, the release of 1 Dec; 2550c83d data-2026-11-29, before the
# metadata's migration 3 and the lexical index's tail layout, so opening it runs both migrations)
# It checks the commit out in a temporary worktree, installs it, ingests three small corpus files
# with its CLI and asks its CLI the questions; the folder is small (< 1 MB) and committed.
set -euo pipefail
COMMIT=${1:-d3939fb0ad24fa0e3a1a8caa641d6a99d4c2b249}
REPO=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=$REPO/../shared/corpus/formats
OUT=$REPO/packages/cli/test/fixtures/${2:-data-2026-12-01}
OLD=$(mktemp -d /tmp/pp-old-XXXX)
trap 'git -C "$REPO" worktree remove --force "$OLD"' EXIT
git -C "$REPO" worktree add --detach "$OLD" "$COMMIT" > /dev/null
(cd "$OLD" && npx --yes pnpm@10 install --frozen-lockfile --offline > /dev/null)
rm -rf "$OUT" && mkdir -p "$OUT"
DATA=$(mktemp -d /tmp/pp-old-data-XXXX)
(cd "$OLD" && npx pnpm@10 -s pinpoint ingest --data-dir "$DATA" \
  "$CORPUS/docx/docling__word_sample.docx" "$CORPUS/xlsx/docling__xlsx_05_table_with_title.xlsx" "$CORPUS/md/kotaemon__policy.md")
while IFS= read -r q; do
  (cd "$OLD" && npx pnpm@10 -s pinpoint ask "$q" --json --data-dir "$DATA")
done < "$REPO/packages/cli/test/upgrade-questions.txt" > "$OUT/answers.jsonl"
# a clean close leaves no -wal/-shm files; copy the folder as the release left it
cp -r "$DATA"/. "$OUT/"
rm -rf "$DATA"
echo "$COMMIT" > "$OUT/COMMIT"
du -sh "$OUT"
