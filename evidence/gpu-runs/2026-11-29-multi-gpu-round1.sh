#!/usr/bin/env bash
# Round 1 (issue 8 on one H200): GPU tests through real ctest with the spec gridfuzz writes; the
# default sweep by the previous build (d912e29) and by this one (--devices 0 and --devices all via
# scripts/multi-gpu-check), twice, interleaved; verdict comparisons and the gate.
# From the tree (evidence/lib.sh): this checkout's build or GRIDFUZZ_PREBUILT's binaries; the
# previous engine from GRIDFUZZ_OLD_PREBUILT, else built here from commit d912e29.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
old_gf="$(evidence_old d912e29 gridfuzz)" || exit 3
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/gpu.txt 2>&1
date -u +%FT%TZ >> $O/gpu.txt
"$gf" devices --ctest-resource-spec $O/spec.json > $O/devices.txt 2>&1
mkdir -p $O/ctest
for t in corpus core engine gguf affine selftest; do
  echo "add_test($t $(gridfuzz_built gridfuzz_${t}_gpu_tests) --gtest_output=xml:$O/ctest/$t.xml)"
  echo "set_tests_properties($t PROPERTIES RESOURCE_GROUPS gpus:1 WORKING_DIRECTORY $PWD)"
done > $O/ctest/CTestTestfile.cmake
t0=$(date +%s)
(cd $O/ctest && ctest --resource-spec-file $O/spec.json -j 3 --output-on-failure > $O/ctest.log 2>&1)
echo "ctest rc=$? in $(( $(date +%s) - t0 )) s" > $O/summary.txt
grep -E "tests passed|Test +#" $O/ctest.log >> $O/summary.txt
for rep in 1 2; do
  s=$(date +%s.%N)
  "$old_gf" sweep --csv $O/old-$rep.csv > $O/old-$rep.log 2>&1
  echo "old sweep rep $rep rc=$? wall $(awk -v a=$s -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s" >> $O/summary.txt
  bash scripts/multi-gpu-check --artifacts $O/mgc-$rep > $O/mgc-$rep.log 2>&1
  echo "multi-gpu-check rep $rep rc=$?: $(tail -n 1 $O/mgc-$rep/diff.txt); $(head -n 1 $O/mgc-$rep/summary.txt)" >> $O/summary.txt
  "$gf" diff --same-verdicts $O/old-$rep.csv $O/mgc-$rep/one-gpu.csv > $O/old-vs-new-$rep.txt 2>&1
  echo "old vs new rep $rep rc=$?: $(tail -n 1 $O/old-vs-new-$rep.txt)" >> $O/summary.txt
done
"$gf" diff baselines/nvidia-h200.csv $O/mgc-1/all-gpus.csv > $O/gate.txt 2>&1
echo "gate vs baseline rc=$?: $(head -n 2 $O/gate.txt | tr '\n' ' ')" >> $O/summary.txt
grep -h "^sweep:" $O/mgc-*/*.log $O/old-*.log >> $O/summary.txt
cd $O && tar czf round1.tgz --exclude=round1.tgz * && find . -mindepth 1 -maxdepth 1 ! -name round1.tgz ! -name summary.txt -exec rm -rf {} +
cat $O/summary.txt
