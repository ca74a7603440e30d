#!/usr/bin/env bash
# `pnpm eval:all [SET…]`: every evaluation set of ../shared/eval (or the ones named) through
# `pnpm pinpoint eval … --record`, one after another, then the benchmarks page. Off-topic pairs
# ask one set's questions of another's documents. Sets run one at a time so their latencies are
# not each other's load.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/eval
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  sets=(squad2-dev squad-offtopic-dev jsquad-dev jaquad-dev drcd-dev cmrc-dev
    wtq-dev wtq-dev2 zh-table-dev ja-table-dev tatqa-dev financebench-dev
    jsquad-dev+jaquad-dev jaquad-dev+jsquad-dev drcd-dev+cmrc-dev cmrc-dev+drcd-dev)
fi
for set in "${sets[@]}"; do
  if [[ "$set" == *+* ]]; then
    echo "eval: ${set%+*} with off-topic questions of ${set#*+}" >&2
    pnpm -s pinpoint eval "$shared/${set%+*}" --offtopic-from "$shared/${set#*+}" --record >/dev/null
  else
    echo "eval: $set" >&2
    pnpm -s pinpoint eval "$shared/$set" --record >/dev/null
  fi
done
pnpm -s bench:report
