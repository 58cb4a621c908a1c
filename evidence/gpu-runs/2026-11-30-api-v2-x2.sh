#!/usr/bin/env bash
# 2026-11-30, nvidia-h200-x2: the Kernel API v2 build (every adapter ported; the runner compares
# every completed call's launches with its plan) on the GPU.
#  1. scripts/nightly: every GPU suite, the budgeted default sweep (150 s), the report and the gate
#     against baselines/nvidia-h200.csv.
#  2. at once, on one GPU each: scripts/gpu-selftest (every bug class found as before; the table
#     of evidence/bug-class-results.md) and the random sweep with seed 7 (`--tiers none --cases 300`,
#     a 150 s budget shared by every kernel x variant): no unexpected-pass, no model-mismatch?
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
export GRIDFUZZ_SWEEP_BUDGET_S=150
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/summary.txt
t0=$(date +%s)
timeout 330 bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" >> $O/summary.txt
grep -E "GPU tests|gate|exit" $O/nightly/nightly.log >> $O/summary.txt
grep -hE "^sweep:|^time budget" $O/nightly/sweep.log >> $O/summary.txt
cp $O/nightly/sweep.csv $O/nightly-sweep.csv
(CUDA_VISIBLE_DEVICES=1 timeout 200 bash scripts/gpu-selftest $O/selftest > $O/selftest-console.log 2>&1
 echo "gpu-selftest rc=$?" >> $O/selftest-console.log) &
CUDA_VISIBLE_DEVICES=0 timeout 200 "$gf" sweep --tiers none --cases 300 --seed 7 --time-budget 150 \
  --ledger properties/known-failures.txt --csv $O/seed7.csv > $O/seed7.log 2>&1
echo "seed7 rc=$?" >> $O/seed7.log
wait
tail -n 3 $O/seed7.log >> $O/summary.txt
tail -n 2 $O/selftest-console.log >> $O/summary.txt
(cd $O && tar czf runs.tgz nightly nightly-console.log selftest selftest-console.log seed7.log && rm -rf nightly selftest nightly-console.log selftest-console.log seed7.log)
cat $O/summary.txt
