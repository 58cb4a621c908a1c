# Sourced by the job scripts in evidence/ (`bash evidence/gpu-runs/<script>.sh`, from any folder):
# each runs from this tree as it is. The binaries come through scripts/lib.sh: prebuilt ones from
# GRIDFUZZ_PREBUILT=DIR (side by side, as scripts/nightly takes them), else this checkout is built
# first in GRIDFUZZ_BUILD (default build/; a fresh build takes 20-30 minutes on 2 cores). Results
# go to $OUT (default /tmp/out). The scripts then run in the repository root: they name
# properties/, scripts/ and baselines/ relative to it.
#
# After sourcing: $gf is the gridfuzz binary, $bin_dir its folder; `gridfuzz_built NAME` finds a
# *_gpu_tests or *_bench binary of the same build. A script that compares with an older build gets
# that build's files from evidence_old (GRIDFUZZ_OLD_PREBUILT=DIR, or a build of the commit it names).

# Paths given relative to where the script was started, before moving to the repository root.
for _v in GRIDFUZZ_PREBUILT GRIDFUZZ_OLD_PREBUILT GRIDFUZZ_BUILD OUT; do
  if [ -n "${!_v:-}" ] && [[ "${!_v}" != /* ]]; then printf -v "$_v" '%s' "$PWD/${!_v}"; fi
done
unset _v
# shellcheck source=scripts/lib.sh
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." >/dev/null && pwd)/scripts/lib.sh"
cd "$GRIDFUZZ_ROOT" || exit 3
export OUT="${OUT:-/tmp/out}"
mkdir -p "$OUT"
gridfuzz_build_unless_prebuilt >&2 || { echo "evidence: the build of this checkout failed" >&2; exit 3; }
gf="$(gridfuzz_binary)" || exit 3
bin_dir="$(dirname "$gf")"
# A libbenchmark carried beside prebuilt binaries; cuBLAS and CUPTI from the CUDA installation.
export LD_LIBRARY_PATH="$bin_dir:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# evidence_old COMMIT NAME [CMAKE_ARGS...]: the file NAME (gridfuzz, or a *_bench / *_gpu_tests
# binary) of an older build, printed as a path: from GRIDFUZZ_OLD_PREBUILT=DIR when set (prebuilt
# binaries side by side, or a build tree), else from a Release build of COMMIT made here with that
# commit's own scripts/lib.sh (a git worktree in $GRIDFUZZ_BUILD-COMMIT/src, built in
# $GRIDFUZZ_BUILD-COMMIT/build, CMAKE_ARGS added to its configure; as long as any build). COMMIT
# "unknown": the records do not say which commit it was, so only GRIDFUZZ_OLD_PREBUILT can name
# it. Returns 3, saying why on stderr, when there is no such build.
evidence_old() {
  local commit=$1 name=$2 dir
  shift 2
  if [ -n "${GRIDFUZZ_OLD_PREBUILT:-}" ]; then
    dir="$GRIDFUZZ_OLD_PREBUILT"
  elif [ "$commit" = unknown ] || ! git -C "$GRIDFUZZ_ROOT" rev-parse -q --verify "$commit^{commit}" >/dev/null 2>&1; then
    echo "evidence: no older build to compare with: name its binaries with GRIDFUZZ_OLD_PREBUILT=DIR" \
      "(the commit: $commit)" >&2
    return 3
  else
    dir="$GRIDFUZZ_BUILD-$commit"
    if [ ! -d "$dir/src" ]; then
      git -C "$GRIDFUZZ_ROOT" worktree add -q --detach "$dir/src" "$commit" >&2 || return 3
    fi
    # shellcheck disable=SC1091  # that commit's own lib.sh
    (GRIDFUZZ_BUILD="$dir/build" && source "$dir/src/scripts/lib.sh" && gridfuzz_install_deps && gridfuzz_build "$@") >&2 ||
      { echo "evidence: the build of $commit failed" >&2; return 3; }
    dir="$dir/build"
  fi
  if [ "$name" = gridfuzz ]; then
    GRIDFUZZ_PREBUILT="$dir" gridfuzz_binary
  else
    GRIDFUZZ_PREBUILT="$dir" gridfuzz_built "$name"
  fi
}
