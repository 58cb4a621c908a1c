#!/usr/bin/env bash
# 2026-11-30, nvidia-h200-x2: the default sweep as the nightly runs it (--timing, --devices all,
# the checkout's ledger), under a 220 s budget, for the regenerated baseline (then
# docs/baselines/nvidia-h200.csv, now baselines/nvidia-h200.csv) and the report pictures (rendered
# afterwards with gnuplot, which the device image lacks). From the tree: evidence/lib.sh.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
"$gf" sweep --timing --devices all --time-budget 220 --ledger properties/known-failures.txt \
  --csv $OUT/sweep.csv > $OUT/sweep.log 2>&1
echo "sweep exit $?" >> $OUT/sweep.log
grep -vE "^(affine|gguf|vllm|llamacpp|mlx)\." $OUT/sweep.log | grep -v "^note: .*known-failures" | tail -n 12
