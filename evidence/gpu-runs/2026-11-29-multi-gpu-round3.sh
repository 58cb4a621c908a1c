#!/usr/bin/env bash
# Round 3: the final build (after the error-propagation change to WorkerPool): scripts/nightly,
# then scripts/multi-gpu-check. From the tree: evidence/lib.sh.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
t0=$(date +%s)
bash scripts/nightly --artifacts $O/nightly --no-bench > $O/nightly-console.log 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" > $O/summary.txt
grep -E "GPU tests|gate|exit" $O/nightly/nightly.log >> $O/summary.txt
grep -h "^sweep:" $O/nightly/sweep.log >> $O/summary.txt
bash scripts/multi-gpu-check --artifacts $O/mgc > $O/mgc.log 2>&1
echo "multi-gpu-check rc=$?: $(tail -n 1 $O/mgc/diff.txt); $(head -n 1 $O/mgc/summary.txt)" >> $O/summary.txt
grep -h "^sweep:" $O/mgc/*.log >> $O/summary.txt
cd $O && tar czf round3.tgz --exclude=round3.tgz * && find . -mindepth 1 -maxdepth 1 ! -name round3.tgz ! -name summary.txt -exec rm -rf {} +
cat $O/summary.txt
