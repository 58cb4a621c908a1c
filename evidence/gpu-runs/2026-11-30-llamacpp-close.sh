#!/usr/bin/env bash
# 2026-11-30, nvidia-h200: closing issue 15 (docs/upstream/llama-cpp.md, "GPU results", run 3).
# From the tree (evidence/lib.sh): gridfuzz and gridfuzz_llamacpp_gpu_tests of this checkout's
# build (or GRIDFUZZ_PREBUILT's; the run used branch helper/llamacpp-close's, sm_90); for the
# before/after of Finding 6 the run-2 binary, whose commit the records do not name:
# GRIDFUZZ_OLD_PREBUILT=DIR names it (without it the two "before" replays are left out). CUPTI:
# the toolkit's, or GRIDFUZZ_CUPTI_LIBRARY (the run carried CUPTI 13.0's libcupti.so.13). Writes
# into $OUT.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
llamacpp_tests="$(gridfuzz_built gridfuzz_llamacpp_gpu_tests)" || exit 3
before="$(evidence_old unknown gridfuzz)"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; "$gf" --version; } > $OUT/summary.txt 2>&1
step() { local name=$1 lim=$2; shift 2; local t0=$SECONDS; timeout $lim "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? $((SECONDS-t0)) s" >> $OUT/summary.txt; }
# 1. upstream's q8_1 quantizer against the CPU's, and the mmvq cases of the GPU tests.
step gpu_tests 70 "$llamacpp_tests" --gtest_filter='*Quantizer*:*Mmvq*'
# 2. Finding 6's replays (run 2: fail:reference for q6_K/iq4_xs at 2 and 8 tokens, seed 1; the
#    sweep's q8_0 row), with the binary of run 2 and with this one.
DS="--set op=mul_mat_id --set experts=256 --set top_k=8 --set rows=7168 --set cols=2048 --set proj=down"
Q="--set quant=q4_0,q8_0,q4_K,q6_K,iq4_xs --set tokens=1,2,8"
SW="--set op=mul_mat_id --set cols=7104 --set experts=254 --set proj=down --set rows=2046 --set top_k=6 --set tokens=1 --set quant=q8_0"
for b in gridfuzz-before gridfuzz; do
  bin="$gf"
  if [ $b = gridfuzz-before ]; then
    [ -n "$before" ] || { echo "replay_$b: no run-2 binary (GRIDFUZZ_OLD_PREBUILT), left out" >> $OUT/summary.txt; continue; }
    bin="$before"
  fi
  # shellcheck disable=SC2086  # DS, Q and SW are lists of options
  step replay_$b 25 "$bin" run llamacpp.mmvq $DS $Q --seed 1 --csv $OUT/replay_$b.csv
  # shellcheck disable=SC2086
  step replay_sweeprow_$b 10 "$bin" run llamacpp.mmvq $SW --seed 1 --csv $OUT/replay_sweeprow_$b.csv
done
# 3. The sweep of issue 15's "Done when": every llamacpp.* kernel, its boundaries and the default
#    (DeepSeek-V3) shapes plus 20 random cases each, seed 7, under a 130 s budget.
step sweep 175 "$gf" sweep 'llamacpp.*' --model none --cases 20 --seed 7 --devices all --time-budget 130 \
  --timeout 60 --csv $OUT/sweep.csv
cat $OUT/summary.txt
grep -E "^UPSTREAM-Q8_1|^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | cut -c1-400
for f in $OUT/replay_*.log $OUT/sweep.log; do echo "== $f"; grep -vE "^progress" $f | tail -6 | cut -c1-300; done
# Added after the run (the device tool returns at most 8 files; the sweep's CSV and log did not come
# back): everything but the summary in one archive.
(cd $OUT && tar czf outputs.tgz --exclude=summary.txt --exclude=outputs.tgz * && find . -type f ! -name summary.txt ! -name outputs.tgz -delete)
