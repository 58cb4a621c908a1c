#!/usr/bin/env bash
# 2026-11-30, nvidia-h200-x2: scripts/nightly (every merged kernel family: ours, vLLM, llama.cpp,
# MLX; the new sweep plan under a 150 s budget; the report with its pictures), then
# scripts/multi-gpu-check on a bounded sweep for the one- vs two-GPU ratio.
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
export GRIDFUZZ_SWEEP_BUDGET_S=150
t0=$(date +%s)
bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" > $O/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $O/summary.txt
grep -E "GPU tests|gate|exit" $O/nightly/nightly.log >> $O/summary.txt
grep -hE "^sweep:|^time budget" $O/nightly/sweep.log >> $O/summary.txt
cp $O/nightly/sweep.csv $O/sweep.csv
(cd $O && tar czf nightly.tgz nightly nightly-console.log && rm -rf nightly nightly-console.log)
bash scripts/multi-gpu-check --artifacts $O/mgc -- gguf.mmvq --model none --cases 0 > $O/mgc.log 2>&1
echo "multi-gpu-check rc=$?: $(tail -n 1 $O/mgc/diff.txt 2>/dev/null); $(head -n 1 $O/mgc/summary.txt 2>/dev/null)" >> $O/summary.txt
grep -h "^sweep:" $O/mgc/*.log >> $O/summary.txt
(cd $O && tar czf mgc.tgz mgc mgc.log && rm -rf mgc mgc.log)
cat $O/summary.txt
