#!/usr/bin/env bash
# Round 4: after the self-test adapters share pieces_of()/launch_variant(): the self-test suite
# (bisect at every trigger, fixed twins, random sweeps), the engine and corpus suites, and the
# bug-class table, on the H200. From the tree: evidence/lib.sh.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
GRIDFUZZ_SELFTEST_PLUGIN="$(gridfuzz_built libgridfuzz_selftest.so)" || exit 3
export GRIDFUZZ_BINARY="$gf" GRIDFUZZ_SELFTEST_PLUGIN GRIDFUZZ_SELFTEST_OUT=$O/selftest
mkdir -p $O/selftest
for t in corpus engine selftest; do
  s=$(date +%s)
  "$(gridfuzz_built gridfuzz_${t}_gpu_tests)" > $O/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s: $(grep -E '^\[  (PASSED|FAILED) ' $O/$t.log | tail -n 1)" >> $O/summary.txt
done
cd $O && tar czf round4.tgz --exclude=round4.tgz * && find . -mindepth 1 -maxdepth 1 ! -name round4.tgz ! -name summary.txt -exec rm -rf {} +
cat $O/summary.txt
