#!/usr/bin/env bash
# 2026-11-30 evening, nvidia-h200: the merged build (kernel time, decode-size GEMV changes, qmv,
# affine.qmm hopper, vLLM dtypes) on the GPU.
#  1. scripts/nightly: every GPU suite, a 60 s budgeted default sweep, the report and the gate
#     against baselines/nvidia-h200.csv;
#  2. kernel time (schema 1.2 columns) for kernels launched by our code and by upstream's own host
#     code (llama.cpp, MLX), the hopper variant and a 16-bit vLLM call.
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
export GRIDFUZZ_SWEEP_BUDGET_S=60
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $O/summary.txt
t0=$(date +%s)
timeout 300 bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" >> $O/summary.txt
grep -E "GPU tests|gate|exit|FAILED|passed" $O/nightly/nightly.log >> $O/summary.txt
grep -hE "^sweep:|^time budget" $O/nightly/sweep.log >> $O/summary.txt
T=$O/kernel-time.csv
"$gf" run gguf.moe_vec --variant fixed --set tokens=8 --timing --csv $T > /dev/null 2>&1
"$gf" run vllm.moe_vec --variant upstream --set tokens=8 --set dtype=bf16 --timing --csv $T > /dev/null 2>&1
"$gf" run llamacpp.mmvq --timing --csv $T > /dev/null 2>&1
"$gf" run mlx.qmm --variant upstream --timing --csv $T > /dev/null 2>&1
"$gf" run affine.qmm --variant hopper --set tokens=8192 --set vocab=4096 --set cols=4096 --set bits=4 \
  --set group_size=64 --set dtype=bf16 --timing --csv $T > /dev/null 2>&1
python3 - "$T" >> $O/summary.txt <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["kernel"], r["variant"], r["verdict"], "call_ms", r["time_ms_median"], "kernel_ms", r["kernel_ms_median"],
          "kernels", r["kernels_per_call"], "launches", r["launches"])
PY
(cd $O && tar czf runs.tgz nightly nightly-console.log && rm -rf nightly nightly-console.log)
cat $O/summary.txt
