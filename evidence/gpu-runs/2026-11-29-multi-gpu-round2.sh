#!/usr/bin/env bash
# Round 2: the self-test GPU tests through ctest with the spec (the binaries' paths in the
# environment), then scripts/nightly (GPU tests one per GPU, sweep --devices all --timing, report,
# gate against baselines/nvidia-h200.csv). From the tree: evidence/lib.sh.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
"$gf" devices --ctest-resource-spec $O/spec.json > /dev/null 2>&1
mkdir -p $O/ctest
{ echo "add_test(selftest $(gridfuzz_built gridfuzz_selftest_gpu_tests) --gtest_output=xml:$O/ctest/selftest.xml)"
  echo "set_tests_properties(selftest PROPERTIES RESOURCE_GROUPS gpus:1 WORKING_DIRECTORY $PWD"
  echo "  ENVIRONMENT \"GRIDFUZZ_BINARY=$gf;GRIDFUZZ_SELFTEST_PLUGIN=$(gridfuzz_built libgridfuzz_selftest.so)\")"; } > $O/ctest/CTestTestfile.cmake
t0=$(date +%s)
(cd $O/ctest && ctest --resource-spec-file $O/spec.json -j 2 --output-on-failure > $O/ctest.log 2>&1)
echo "ctest selftest rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E '^\[  (PASSED|FAILED)' $O/ctest.log | head -n 2 | tr '\n' ' ')" > $O/summary.txt
t0=$(date +%s)
bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" >> $O/summary.txt
grep -E "GPU tests|sweep:|gate|exit" $O/nightly/nightly.log >> $O/summary.txt
grep -h "^sweep:" $O/nightly/sweep.log >> $O/summary.txt
cd $O && tar czf round2.tgz --exclude=round2.tgz * && find . -mindepth 1 -maxdepth 1 ! -name round2.tgz ! -name summary.txt -exec rm -rf {} +
cat $O/summary.txt
