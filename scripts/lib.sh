# Shared by the scripts in scripts/ and the job scripts in evidence/: install what is missing,
# build, and find the binaries (prebuilt ones in GRIDFUZZ_PREBUILT=DIR, else this checkout's build
# in GRIDFUZZ_BUILD, default build/). Sourced, not executed.

GRIDFUZZ_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GRIDFUZZ_BUILD="${GRIDFUZZ_BUILD:-$GRIDFUZZ_ROOT/build}"
GRIDFUZZ_DEBIAN_PACKAGES=(cmake g++ make libgtest-dev libbenchmark-dev librapidcheck-dev libcli11-dev gnuplot-nox libxml2-utils jq nlohmann-json3-dev)

# Installs the Debian packages that are not installed yet (apt-get update only when needed).
gridfuzz_install_deps() {
  local missing=()
  for p in "${GRIDFUZZ_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if ! command -v nvcc >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
      export PATH="/usr/local/cuda/bin:$PATH"
    else
      echo "error: nvcc not found; install the CUDA toolkit (/usr/local/cuda)" >&2
      return 3
    fi
  fi
}

# MLX's CUDA sources are on no package registry (docs/upstream/mlx.md): the build uses a checkout
# at the pinned commit named by GRIDFUZZ_MLX_DIR, or else a folder upstream/mlx-<commit> inside a
# folder beside this checkout, where a machine keeps the upstream sources registries do not have.
# Neither: mlx.* is left out (configure says so).
GRIDFUZZ_MLX_COMMIT=846d176
gridfuzz_find_mlx() {
  [ -n "${GRIDFUZZ_MLX_DIR:-}" ] && return 0
  local candidate
  for candidate in "$(dirname "$GRIDFUZZ_ROOT")"/*/upstream/mlx-"$GRIDFUZZ_MLX_COMMIT"; do
    if [ -f "$candidate/mlx/backend/cuda/quantized/qmm/qmm.cu" ]; then
      export GRIDFUZZ_MLX_DIR="$candidate"
      echo "MLX sources: $candidate"
      return 0
    fi
  done
}

# Configures and builds (Release unless CMAKE_BUILD_TYPE is set) with every core. The pinned
# upstream packages are fetched first (cached; a failure leaves the upstream kernels out, said once).
gridfuzz_build() {
  "$GRIDFUZZ_ROOT/scripts/fetch-upstream" || echo "note: upstream kernels left out of this build (see above)"
  gridfuzz_find_mlx
  cmake -S "$GRIDFUZZ_ROOT" -B "$GRIDFUZZ_BUILD" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@" >/dev/null
  cmake --build "$GRIDFUZZ_BUILD" -j "$(nproc)"
}

# Builds this checkout (gridfuzz_install_deps, then gridfuzz_build with the arguments) unless
# GRIDFUZZ_PREBUILT names a folder of prebuilt binaries, which are then used as they are.
gridfuzz_build_unless_prebuilt() {
  [ -n "${GRIDFUZZ_PREBUILT:-}" ] && return 0
  gridfuzz_install_deps && gridfuzz_build "$@"
}

# The gridfuzz binary, printed as an absolute path: GRIDFUZZ_PREBUILT/gridfuzz when GRIDFUZZ_PREBUILT
# is set, else GRIDFUZZ_BUILD/gridfuzz. Every script finds the binary this way. Returns 3, saying
# so on stderr, when that file is not an executable.
gridfuzz_binary() {
  local dir="${GRIDFUZZ_PREBUILT:-$GRIDFUZZ_BUILD}"
  if [ ! -x "$dir/gridfuzz" ] || [ -d "$dir/gridfuzz" ]; then
    echo "no gridfuzz binary at $dir/gridfuzz" >&2
    return 3
  fi
  echo "$(cd -- "$dir" >/dev/null && pwd)/gridfuzz"
}

# gridfuzz_built NAME: another built file (a *_gpu_tests or *_bench binary, libgridfuzz_selftest.so)
# from the same place, printed as an absolute path: NAME beside gridfuzz (prebuilt binaries lie
# side by side), else the first file of that name below that folder (a build tree: tests/gpu/...,
# bench/...). Returns 3, saying so on stderr, when there is none.
gridfuzz_built() {
  local dir="${GRIDFUZZ_PREBUILT:-$GRIDFUZZ_BUILD}" path
  path="$dir/$1"
  [ -f "$path" ] || path="$(find "$dir" -name CMakeFiles -prune -o -type f -name "$1" -print -quit 2>/dev/null)"
  if [ -z "$path" ] || [ ! -f "$path" ]; then
    echo "no $1 in $dir" >&2
    return 3
  fi
  echo "$(cd -- "$(dirname "$path")" >/dev/null && pwd)/${path##*/}"
}
