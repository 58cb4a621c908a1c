#!/usr/bin/env bash
# 2026-11-30 late, nvidia-h200: the build with typed records over the worker pipe, the executors in
# the engine and the kernel-family layout (issue 12), on the GPU.
#  1. scripts/nightly: every GPU suite one binary at a time (the self-test suite finds every bug
#     class through the plugin), a 60 s budgeted default sweep, the report and the gate against
#     baselines/nvidia-h200.csv;
#  2. the same cases through a worker (the record crosses the pipe) and in-process (it does not):
#     every CSV column but run_id and the timings must be equal.
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
export GRIDFUZZ_SWEEP_BUDGET_S=60
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $O/summary.txt
t0=$(date +%s)
timeout 330 bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" >> $O/summary.txt
grep -E "GPU tests|gate|exit|FAILED|passed" $O/nightly/nightly.log >> $O/summary.txt
grep -hE "^sweep:|^time budget" $O/nightly/sweep.log >> $O/summary.txt
for mode in worker in-process; do
  flag=""; [ $mode = in-process ] && flag=--in-process
  "$gf" run gguf.moe_vec --set tokens=1,8191,8192 --set top_k=8 $flag --csv $O/pipe-$mode.csv > $O/pipe-$mode.txt 2>&1
  "$gf" run affine.qmm --variant legacy,fixed --set tokens=1,16 $flag --timing --samples 3 --csv $O/pipe-$mode.csv >> $O/pipe-$mode.txt 2>&1
done
python3 - "$O/pipe-worker.csv" "$O/pipe-in-process.csv" >> $O/summary.txt <<'PY'
import csv, sys
skip = {"run_id", "time_ms_median", "time_ms_min", "time_ms_max", "gbps", "kernel_ms_median", "kernel_ms_min", "kernel_ms_max"}
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
diffs = [(x["replay"], k, x[k], y[k]) for x, y in zip(a, b) for k in x if k not in skip and x[k] != y[k]]
print(f"worker vs in-process: {len(a)} and {len(b)} rows, {len(diffs)} differing fields", diffs[:5])
print("verdicts:", sorted(set((r["kernel"], r["variant"], r["verdict"]) for r in a)))
PY
(cd $O && tar czf runs.tgz nightly nightly-console.log && rm -rf nightly nightly-console.log)
cat $O/summary.txt
