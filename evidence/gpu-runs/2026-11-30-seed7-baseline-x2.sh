#!/usr/bin/env bash
# 2026-11-30 (evening), nvidia-h200-x2: issue 13's last evidence.
#  1. the random sweep with seed 7: 300 random cases per kernel and variant, no boundary tiers
#     (`--tiers none`), under a 200 s budget; the question is whether any row is unexpected-pass or
#     model-mismatch.
#  2. the baseline: the defaults' boundary tier (every kernel's predicted boundaries and start
#     shapes, every variant at every point) with --timing, under a 330 s budget; the tier is
#     dealt round-robin across kernel x variant, so legacy and fixed advance through the same
#     points together.
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
"$gf" sweep --devices all --tiers none --cases 300 --seed 7 --time-budget 200 \
  --ledger properties/known-failures.txt --csv $OUT/seed7.csv > $OUT/seed7.log 2>&1
echo "seed7 exit $?" >> $OUT/seed7.log
"$gf" sweep --timing --devices all --tiers defaults --time-budget 330 \
  --ledger properties/known-failures.txt --csv $OUT/baseline.csv > $OUT/baseline.log 2>&1
echo "baseline exit $?" >> $OUT/baseline.log
for f in seed7 baseline; do echo "== $f"; grep -E "^sweep:|budget|exit" $OUT/$f.log | tail -4; done
cut -d, -f1 $OUT/device.txt | head -1
