#!/usr/bin/env bash
# 2026-12-06, run on one H100 (README.md): every GPU test binary beside gridfuzz, then the example
# plugins in GRIDFUZZ_PLUGINS swept. The whole plan is evidence/2026-12-06-h100-whole-plan/job.sh.
#   GRIDFUZZ_PREBUILT=DIR GRIDFUZZ_PLUGINS=DIR OUT=DIR [GRIDFUZZ_SUITES=GLOB] [GRIDFUZZ_SUITE_TIMEOUT_S=240] job.sh suites
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: suites}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1

case "$mode" in
  suites)
    # Every *_gpu_tests binary beside $gf, then the example plugins (built out of tree against the
    # installed package, as .ci/run builds them; GRIDFUZZ_PLUGINS=DIR holds their .so) swept on the
    # GPU: the GGUF example is the formats library's first run on a device.
    # As scripts/nightly runs prebuilt tests: gridfuzz, the self-test plugin and the watch's
    # planted program from beside the binaries, not from their build paths.
    export GRIDFUZZ_BINARY="$gf" GRIDFUZZ_SELFTEST_PLUGIN="$bin_dir/libgridfuzz_selftest.so"
    [ -x "$bin_dir/watch_near_limits" ] && export GRIDFUZZ_NEAR_LIMITS="$bin_dir/watch_near_limits"
    for t in "$bin_dir"/${GRIDFUZZ_SUITES:-*}_gpu_tests; do
      name=$(basename "$t")
      t0=$(date +%s)
      timeout "${GRIDFUZZ_SUITE_TIMEOUT_S:-240}" "$t" --gtest_brief=1 > "$run_dir/$name.log" 2>&1
      rc=$?
      echo "$name: rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/$name.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
    done
    for so in "${GRIDFUZZ_PLUGINS:?}"/libmy*.so; do
      [ -e "$so" ] || continue
      name=$(basename "$so" .so)
      "$gf" --plugin "$so" sweep 'my.*' --cases 50 --workers-per-device 2 --csv "$run_dir/$name.csv" > "$run_dir/$name.log" 2>&1
      echo "$name sweep: rc=$? $(grep -E '^sweep:' "$run_dir/$name.log")" >> "$OUT/summary.txt"
      grep -E "^FAIL" "$run_dir/$name.log" | head -10 >> "$OUT/summary.txt"
    done
    tar cf - -C "$run_dir" $(cd "$run_dir" && ls *.log *.csv 2>/dev/null) | xz -T0 > "$OUT/suites.tar.xz"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 60 "$OUT/summary.txt"
