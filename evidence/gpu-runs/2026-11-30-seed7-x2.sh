#!/usr/bin/env bash
# 2026-11-30, nvidia-h200-x2, the API v2 build with the per-target time share of the random phase:
#  1. three replays of MLX index wraps the v2 nightly met (now in the ledger): expected-fail?
#  2. the random sweep with seed 7 (`--tiers none --cases 300`) on both GPUs under a 250 s budget
#     shared by every kernel x variant: is any row unexpected-pass or model-mismatch?
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/summary.txt
i=0
for r in 'mlx.qmm/upstream/1/bits=4,cols=4096,dtype=bf16,group_size=64,tokens=16,vocab=524416' \
         'mlx.qmm/chunked/1/bits=4,cols=4096,dtype=bf16,group_size=64,tokens=16,vocab=524416' \
         'mlx.gather_qmm/chunked/1/bits=4,cols=44096,dtype=bf16,experts=128,group_size=64,rows=768,tokens=16,top_k=8'; do
  i=$((i + 1))
  timeout 120 "$gf" replay "$r" --csv $O/replay$i.csv >> $O/replays.log 2>&1
done
grep -hE "expected-fail|fail|pass" $O/replays.log | tail -n 3 >> $O/summary.txt
timeout 330 "$gf" sweep --devices all --tiers none --cases 300 --seed 7 --time-budget 250 \
  --ledger properties/known-failures.txt --csv $O/seed7.csv > $O/seed7.log 2>&1
echo "seed7 rc=$?" >> $O/summary.txt
grep -hE "^sweep:|^time budget" $O/seed7.log >> $O/summary.txt
xz -9 $O/seed7.log
cat $O/summary.txt
