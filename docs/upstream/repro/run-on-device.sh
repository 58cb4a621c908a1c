#!/usr/bin/env bash
# Every reproduction of docs/upstream/{vllm-gguf,llama-cpp,mlx}.md on one GPU, offline, no gridfuzz:
#   OUT=/tmp/out bash docs/upstream/repro/run-on-device.sh
# Each reproduction's output goes to $OUT/<name>.log, one summary line per reproduction to stdout
# and $OUT/summary.txt, the machine to $OUT/environment.txt, the builds to $OUT/build-*.log.
#
# Needs on the machine: an NVIDIA GPU, python3 with torch (CUDA), nvcc and cmake (for llama.cpp's
# ggml and, where the vLLM plugin's .so does not load into that torch, for the plugin's csrc), g++.
# Carried in $REPRO_WHEELS (default docs/upstream/repro/wheels/, ignored by git), each from PyPI:
#   vllm_gguf_plugin-0.0.5-cp310-abi3-manylinux_2_28_x86_64.whl    6.4 MB  sha256 e795779830ad8907cb0e51bf661dd7784ebaf244b0b324af07a8d3925b6a9739
#   gguf-0.17.1-py3-none-any.whl                                     0.1 MB  sha256 7bc5aa7eeb1931f7d39b48fdc5b38fda6b294b9dca75cf607ac69557840a3943
#   pyyaml-6.0.3-cp312-...manylinux_2_28_x86_64.whl (only where python3 lacks yaml; gguf imports it)
#   numpy-2.3.5-cp312-...manylinux_2_28_x86_64.whl   (only where python3 lacks numpy)
#   llama-cpp-python-0.3.36-llama.cpp.tar.gz: vendor/llama.cpp of the pinned sdist without its
#     models, docs, tools, tests and non-CUDA backends (4.8 MB; how to make it: README.md here)
#   mlx-0.32.2-cp312-cp312-manylinux_2_35_x86_64.whl                 0.7 MB  sha256 8d270ade1e48e006383a6b5f33a3a4ec5c265389299a60a60bf55165af1770d9
#   mlx_cuda_13-0.32.2-py3-none-manylinux_2_35_x86_64.whl           87.4 MB  sha256 335094ccd1c0c6dc3e09c8caba207c8180602bacc0c38ba20c1d81e9456ab394
# A group whose files are missing is skipped and says so. Everything installs with
# `pip install --no-index --no-deps --target` into $REPRO_WORK (default /tmp/gf-repro); nothing
# touches python3's own site-packages. MLX's CUDA libraries (cuBLAS, cuDNN, NCCL, NVRTC, cuFFT,
# cuSOLVER) come from torch's nvidia/*/lib folders and /usr/local/cuda/lib64.
# Budget: REPRO_DEADLINE_S (default 290) from the start; a group not started by then is reported
# "not run: deadline". Per process: REPRO_TIMEOUT_S (default 150).
# REPRO_GROUPS (default vllm,llama,mlx): the groups to run; the others are reported "not run".
# Prebuilt (README.md, "Prebuilt bundle"): REPRO_PREBUILT=DIR (default the repository's .repro-carry/
# where present; REPRO_PREBUILT= turns it off) holds ggml's CUDA libraries and llamacpp_moe_repro
# built for one architecture (llama/), the plugin's csrc built against one torch (vllm/), and wheels
# (wheels/, searched after $REPRO_WHEELS); a file may be xz-packed (NAME.xz). What matches this
# GPU and torch is used instead of building here; what does not is built as without it.
# MLX wheels too large for one call: REPRO_MLX_PARTS=DIR1:DIR2:... (default .repro-mlx-a, -b, -c
# of the repository and /tmp/mlx-stash) are searched for the parts of
# mlx-0.32.2-wheels.tar listed in MLX-PARTS.sha256; with all of them there they are checked,
# joined, unpacked into $REPRO_WORK/mlx-wheels and the two wheels checked against their sha256.
# REPRO_MLX_STASH=DIR: only copy the parts found into DIR (checked), say which are still missing,
# and exit; a later call on the same machine finds them there.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
OUT=${OUT:-/tmp/out}
WHEELS=${REPRO_WHEELS:-$here/wheels}
WORK=${REPRO_WORK:-/tmp/gf-repro}
PY=${PYTHON:-python3}
DEADLINE=${REPRO_DEADLINE_S:-290}
TIMEOUT=${REPRO_TIMEOUT_S:-150}
GROUPS_SEL=${REPRO_GROUPS:-vllm,llama,mlx}
if [ -z "${REPRO_PREBUILT+x}" ]; then
  PREBUILT=""
  [ -d "$root/.repro-carry" ] && PREBUILT=$root/.repro-carry
else
  PREBUILT=${REPRO_PREBUILT:+$(abspath "$REPRO_PREBUILT")}
fi
mlx_dirs=()
IFS=: read -r -a mlx_given <<< "${REPRO_MLX_PARTS-$root/.repro-mlx-a:$root/.repro-mlx-b:$root/.repro-mlx-c:/tmp/mlx-stash}"
for d in ${mlx_given[@]+"${mlx_given[@]}"}; do [ -n "$d" ] && mlx_dirs+=("$(abspath "$d")"); done
mlx_tar=mlx-0.32.2-wheels.tar
mlx_sums=MLX-PARTS.sha256  # sha256sum lines: each part of $mlx_tar, in order, then $mlx_tar itself
sha_ok() { [ "$(sha256sum "$2" | cut -d' ' -f1)" = "$1" ]; }  # SHA FILE
mlx_find() {  # NAME [SHA]: the first of the MLX part folders holding NAME (with that sha256)
  local d
  for d in ${mlx_dirs[@]+"${mlx_dirs[@]}"}; do
    [ -f "$d/$1" ] && { [ -z "${2:-}" ] || sha_ok "$2" "$d/$1"; } && { echo "$d/$1"; return 0; }
  done
  return 1
}

if [ -n "${REPRO_MLX_STASH:-}" ]; then  # copy what is here of the MLX parts, then stop
  stash=$(abspath "$REPRO_MLX_STASH")
  mkdir -p "$stash"
  sums=$(mlx_find "$mlx_sums") || { echo "mlx stash: no $mlx_sums in ${mlx_dirs[*]:-REPRO_MLX_PARTS}"; exit 1; }
  [ "$sums" = "$stash/$mlx_sums" ] || cp "$sums" "$stash/"
  missing=0
  while read -r sha name; do
    [ "$name" = "$mlx_tar" ] && continue
    if [ -f "$stash/$name" ] && sha_ok "$sha" "$stash/$name"; then echo "mlx stash: $name in $stash (sha256 ok)"; continue; fi
    if src=$(mlx_find "$name" "$sha"); then
      cp "$src" "$stash/$name" && sha_ok "$sha" "$stash/$name" && { echo "mlx stash: $name -> $stash (sha256 ok)"; continue; }
    fi
    echo "mlx stash: $name still missing"
    missing=$(( missing + 1 ))
  done < "$sums"
  echo "mlx stash: $missing part(s) still missing"
  exit 0
fi

mkdir -p "$OUT" "$WORK"
: > "$OUT/summary.txt"
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
wanted() { [[ ",$GROUPS_SEL," == *",$1,"* ]]; }
first() {  # PATTERN: the first match in $WHEELS, then the prebuilt wheels, then the joined MLX parts
  local d
  for d in "$WHEELS" ${PREBUILT:+"$PREBUILT/wheels"} "$WORK/mlx-wheels"; do
    compgen -G "$d/$1" | head -n 1 | grep . && return 0
  done
  return 0
}
unxz_to() {  # SRC DEST: copies SRC, or unpacks SRC.xz, to DEST
  if [ -f "$1" ]; then cp "$1" "$2"
  elif [ -f "$1.xz" ]; then
    if command -v xz > /dev/null; then xz -dc "$1.xz" > "$2"
    else "$PY" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1.xz" "$2"; fi
  else return 1; fi
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader
  date -u
  echo "cpus $(nproc)"
  "$PY" -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)'
  nvcc --version 2>/dev/null | tail -n 1
  cmake --version 2>/dev/null | head -n 1
} > "$OUT/environment.txt" 2>&1
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '. ')
cpus=$(nproc)

# run NAME CMD...: one process, its output in $OUT/NAME.log; prints "rc wall_s".
run() {
  local name=$1 t
  shift
  t=$(date +%s)
  timeout "$TIMEOUT" "$@" > "$OUT/$name.log" 2>&1
  echo "$? $(( $(date +%s) - t ))"
}
# The lines a reproduction prints about its cases, and the first error line, on one line.
gist() {
  grep -E '^(tokens|expert|experts|K |m |values|RESULT|PLAN|case|mlx )|CUDA error|GGML_ASSERT|RuntimeError|Error|error:|Aborted|Floating' "$1" |
    grep -v '^\[' | head -n 8 | tr '\n' '|' | cut -c1-400
}
summarise() {  # NAME "rc wall" [more logs...]
  local name=$1 rw=$2 log
  shift 2
  local line="$name: rc=${rw% *} wall=${rw#* }s |"
  for log in "$OUT/$name.log" "$@"; do line+=" $(gist "$log")"; done
  say "$line"
}

# --- installs ---------------------------------------------------------------------------------
vllm_site="$WORK/py-vllm" mlx_site="$WORK/py-mlx"
have_vllm=0 have_mlx=0 have_llama=0
plugin=$(first 'vllm_gguf_plugin-0.0.5-*.whl') gguf_whl=$(first 'gguf-0.17.1-*.whl')
if wanted vllm && [ -n "$plugin" ] && [ -n "$gguf_whl" ]; then
  extra=()
  for dep in numpy:numpy-2.3.5 yaml:pyyaml-6.0.3; do  # gguf's imports, where python3 lacks them
    "$PY" -c "import ${dep%%:*}" 2>/dev/null && continue
    whl=$(first "${dep#*:}-*.whl")
    if [ -n "$whl" ]; then extra+=("$whl"); else say "vllm: python3 lacks ${dep%%:*} and $WHEELS has no ${dep#*:} wheel (finding 7 needs it)"; fi
  done
  if "$PY" -m pip install --no-index --no-deps --quiet --target "$vllm_site" "$plugin" "$gguf_whl" ${extra[@]+"${extra[@]}"} \
      > "$OUT/build-pip-vllm.log" 2>&1; then
    have_vllm=1
  fi
fi
mlx_whl=$(first 'mlx-0.32.2-*.whl') mlx_cuda=$(first 'mlx_cuda_13-0.32.2-*.whl')
mlx_note=""
if wanted mlx && { [ -z "$mlx_whl" ] || [ -z "$mlx_cuda" ]; } && sums=$(mlx_find "$mlx_sums"); then
  # The wheels from the parts of $mlx_tar (each checked), joined, unpacked, and checked again.
  mlx_note=$(
    used=""
    rm -rf "$WORK/mlx-wheels" "$WORK/${mlx_tar:?}" && mkdir -p "$WORK/mlx-wheels" || exit 1
    while read -r sha name; do
      if [ "$name" = "$mlx_tar" ]; then
        sha_ok "$sha" "$WORK/$mlx_tar" || { echo "joined $mlx_tar: sha256 differs"; exit 1; }
        continue
      fi
      part=$(mlx_find "$name" "$sha") || { echo "part $name: none with the sha256 of $sums in ${mlx_dirs[*]}"; exit 1; }
      cat "$part" >> "$WORK/$mlx_tar" || exit 1
      used+=" $part"
    done < "$sums"
    tar -xf "$WORK/$mlx_tar" -C "$WORK/mlx-wheels" && rm -f "$WORK/$mlx_tar" || { echo "tar -x $mlx_tar failed"; exit 1; }
    for w in mlx-0.32.2-cp312-cp312-manylinux_2_35_x86_64.whl:8d270ade1e48e006383a6b5f33a3a4ec5c265389299a60a60bf55165af1770d9 \
        mlx_cuda_13-0.32.2-py3-none-manylinux_2_35_x86_64.whl:335094ccd1c0c6dc3e09c8caba207c8180602bacc0c38ba20c1d81e9456ab394; do
      sha_ok "${w#*:}" "$WORK/mlx-wheels/${w%%:*}" || { rm -f "$WORK/mlx-wheels/${w%%:*}"; echo "${w%%:*}: sha256 differs"; exit 1; }
    done
    echo "joined from$used; parts, $mlx_tar and wheels sha256 ok"
  ) || mlx_note="parts of $mlx_tar: $mlx_note"
  echo "$mlx_note" > "$OUT/build-mlx-parts.log"
  mlx_whl=$(first 'mlx-0.32.2-*.whl') mlx_cuda=$(first 'mlx_cuda_13-0.32.2-*.whl')
fi
if wanted mlx && [ -n "$mlx_whl" ] && [ -n "$mlx_cuda" ] &&
    "$PY" -m pip install --no-index --no-deps --quiet --target "$mlx_site" "$mlx_whl" "$mlx_cuda" > "$OUT/build-pip-mlx.log" 2>&1; then
  have_mlx=1
fi
llama_src=$(first 'llama-cpp-python-0.3.36-llama.cpp.tar.gz')
# A prebuilt ggml (llama/BUILD-INFO says its architectures) is used where it has this GPU's.
llama_pre=""
if [ -n "$PREBUILT" ] && grep -qx "cuda_arch=$cc" "$PREBUILT/llama/BUILD-INFO" 2> /dev/null; then llama_pre=$PREBUILT/llama; fi
wanted llama && { [ -n "$llama_src" ] || [ -n "$llama_pre" ]; } && have_llama=1

# --- builds in the background, while the GPU runs what is ready --------------------------------
# CUDA's libraries for a prebuilt ggml: the toolkit's, torch's nvidia/*/lib, then torch/lib (libgomp).
nvlibs=$("$PY" -c 'import glob, os, torch; r = os.path.dirname(os.path.dirname(torch.__file__)); print(":".join(sorted(glob.glob(os.path.join(r, "nvidia", "*", "lib")))))' 2>/dev/null)
torchlib=$("$PY" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)
llama_ld="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}${CUDA_HOME:-/usr/local/cuda}/lib64${nvlibs:+:$nvlibs}${torchlib:+:$torchlib}"
if [ "$have_vllm" = 1 ]; then
  # Loads the wheel's .so, or builds the wheel's csrc against this torch (_vllm_gguf.py says why).
  # A prebuilt build of that csrc for this torch and GPU goes where _vllm_gguf.py caches its own
  # (torch-VERSION-smARCH/_C_gguf_local.so), so it is loaded instead of built.
  (
    if [ -n "$PREBUILT" ] && [ -d "$PREBUILT/vllm" ]; then
      key="torch-$("$PY" -c 'import torch; print(torch.__version__)' 2> /dev/null)-sm$cc"
      mkdir -p "$WORK/vllm-cache/$key"
      if [ -f "$WORK/vllm-cache/$key/_C_gguf_local.so" ]; then
        echo "[vllm cache $WORK/vllm-cache/$key has a _C_gguf_local.so already]"
      elif unxz_to "$PREBUILT/vllm/$key/_C_gguf_local.so" "$WORK/vllm-cache/$key/_C_gguf_local.so"; then
        echo "[prebuilt $key/_C_gguf_local.so from $PREBUILT/vllm (built elsewhere, $PREBUILT/vllm/BUILD-INFO)]"
      else
        echo "[no prebuilt $key in $PREBUILT/vllm: $(cd "$PREBUILT/vllm" && echo torch-*)]"
      fi
    fi
    cd "$here" && PYTHONPATH="$vllm_site" VLLM_GGUF_REPRO_CACHE="$WORK/vllm-cache" timeout 600 "$PY" _vllm_gguf.py
  ) > "$OUT/build-vllm.log" 2>&1 &
  vllm_build=$!
fi
bin="$WORK/llamacpp_moe_repro"
if [ "$have_llama" = 1 ] && [ -n "$llama_pre" ]; then
  bin="$WORK/llama-prebuilt/llamacpp_moe_repro"
  (
    set -e
    t=$(date +%s)
    # ggml's CUDA libraries and llamacpp_moe_repro as below, built elsewhere for this architecture
    # (BUILD-INFO); the binary finds the libraries next to it (rpath $ORIGIN), CUDA's through
    # LD_LIBRARY_PATH below. Rebuilt here against them (seconds) where llamacpp_moe_repro.cpp changed.
    rm -rf "$WORK/llama-prebuilt" && mkdir -p "$WORK/llama-prebuilt"
    cat "$llama_pre/BUILD-INFO"
    for f in libggml-base.so.0 libggml-cuda.so.0 llamacpp_moe_repro; do
      unxz_to "$llama_pre/$f" "$WORK/llama-prebuilt/$f"
      grep -q "^sha256 $(sha256sum "$WORK/llama-prebuilt/$f" | cut -d' ' -f1)  $f " "$llama_pre/BUILD-INFO" ||
        { echo "$f: sha256 is not BUILD-INFO's"; exit 1; }
    done
    ln -s libggml-base.so.0 "$WORK/llama-prebuilt/libggml-base.so" && ln -s libggml-cuda.so.0 "$WORK/llama-prebuilt/libggml-cuda.so"
    chmod +x "$WORK/llama-prebuilt/llamacpp_moe_repro"
    if ! grep -qx "repro_sha256=$(sha256sum "$here/llamacpp_moe_repro.cpp" | cut -d' ' -f1)" "$llama_pre/BUILD-INFO"; then
      echo "llamacpp_moe_repro.cpp differs from the prebuilt binary's: rebuilding it against the prebuilt ggml"
      cuda=${CUDA_HOME:-/usr/local/cuda}
      # shellcheck disable=SC2016  # $ORIGIN is for the dynamic linker
      g++ -O2 -std=c++17 "$here/llamacpp_moe_repro.cpp" -o "$WORK/llama-prebuilt/llamacpp_moe_repro" \
        -I"$llama_pre/include" -I"$cuda/include" -L"$WORK/llama-prebuilt" -Wl,-rpath,'$ORIGIN' \
        -lggml-cuda -lggml-base -L"$cuda/lib64/stubs" -lcuda
    fi
    LD_LIBRARY_PATH="$llama_ld" ldd "$bin"
    echo "llama.cpp ggml + repro prebuilt (sm_$cc) from $llama_pre: $(( $(date +%s) - t )) s"
  ) > "$OUT/build-llamacpp.log" 2>&1 &
  llama_build=$!
elif [ "$have_llama" = 1 ]; then
  (
    set -e
    t=$(date +%s)
    rm -rf "$WORK/llama.cpp" && tar -xzf "$llama_src" -C "$WORK"
    # ggml's CUDA backend as llama.cpp builds it, for this GPU only; FlashAttention off (its kernels
    # compile to nothing), no NCCL, shared libraries, nothing of llama.cpp but ggml.
    cmake -S "$WORK/llama.cpp" -B "$WORK/llama-build" -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON -DGGML_CUDA_FA=OFF \
      -DGGML_CUDA_NCCL=OFF -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=ON -DCMAKE_CUDA_ARCHITECTURES="$cc" \
      -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_CURL=OFF
    cmake --build "$WORK/llama-build" -j "$(( cpus > 4 ? cpus - 2 : cpus ))" --target ggml-cuda ggml-base
    libdirs=$(find "$WORK/llama-build" -name 'libggml-*.so' -printf '%h\n' | sort -u)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    # shellcheck disable=SC2046  # one -L/-rpath pair per library folder
    g++ -O2 -std=c++17 "$here/llamacpp_moe_repro.cpp" -o "$WORK/llamacpp_moe_repro" \
      -I"$WORK/llama.cpp/ggml/include" -I"$cuda/include" $(for d in $libdirs; do echo "-L$d -Wl,-rpath,$d"; done) \
      -lggml-cuda -lggml-base -L"$cuda/lib64/stubs" -lcuda
    echo "llama.cpp ggml build + repro: $(( $(date +%s) - t )) s"
  ) > "$OUT/build-llamacpp.log" 2>&1 &
  llama_build=$!
fi

# --- MLX (wheels, JIT by NVRTC at first use) ---------------------------------------------------
if [ "$have_mlx" = 1 ]; then
  # MLX's NVRTC finds the toolkit's headers through CUDA_HOME; its compiled kernels are cached on
  # disk (MLX_PTX_CACHE_DIR), so each kernel is compiled once for all the processes below.
  mlxenv=(env PYTHONPATH="$mlx_site" CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" MLX_PTX_CACHE_DIR="$WORK/mlx-ptx-cache"
    LD_LIBRARY_PATH="${nvlibs:+$nvlibs:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  cd "$here" || exit 3
  for c in 1 2 3; do
    rw=$(run "mlx_finding$c" "${mlxenv[@]}" "$PY" mlx_finding1to3_lm_head_int_mn.py "$c")
    summarise "mlx_finding$c" "$rw"
  done
  rw=$(run mlx_finding4 "${mlxenv[@]}" "$PY" mlx_finding4_gather_grid_z.py); summarise mlx_finding4 "$rw"
  rw=$(run mlx_finding5 "${mlxenv[@]}" "$PY" mlx_finding5_gather_weight_offset.py); summarise mlx_finding5 "$rw"
  rw=$(run mlx_finding6 "${mlxenv[@]}" "$PY" mlx_finding6_qmm_epilogue_race.py 10); summarise mlx_finding6 "$rw"
elif ! wanted mlx; then
  say "mlx: not run: not in REPRO_GROUPS=$GROUPS_SEL"
else
  say "mlx: not run: $WHEELS lacks mlx-0.32.2-*.whl or mlx_cuda_13-0.32.2-*.whl (or pip failed: build-pip-mlx.log)${mlx_note:+ | $mlx_note}"
fi

# --- vLLM GGUF plugin ------------------------------------------------------------------------
if [ "$have_vllm" = 1 ]; then
  wait "$vllm_build"
  say "vllm build: rc=$? at $(elapsed) s | $(grep '^\[' "$OUT/build-vllm.log" | tr '\n' ' ' | cut -c1-300)"
  cd "$here" || exit 3
  for f in 1 2 3 4 5 6 7; do
    script=$(ls vllm_finding${f}_*.py)
    name=${script%.py}
    if [ "$(elapsed)" -ge "$DEADLINE" ]; then say "$name: not run: deadline ${DEADLINE}s reached"; continue; fi
    rw=$(run "$name" env PYTHONPATH="$vllm_site" VLLM_GGUF_REPRO_CACHE="$WORK/vllm-cache" "$PY" "$script")
    summarise "$name" "$rw"
  done
elif ! wanted vllm; then
  say "vllm: not run: not in REPRO_GROUPS=$GROUPS_SEL"
else
  say "vllm: not run: $WHEELS lacks vllm_gguf_plugin-0.0.5-*.whl or gguf-0.17.1-*.whl (or pip failed: build-pip-vllm.log)"
fi

# --- llama.cpp (ggml's CUDA backend, one MUL_MAT_ID per process) ------------------------------
if [ "$have_llama" = 1 ]; then
  wait "$llama_build"
  brc=$?
  say "llama.cpp build: rc=$brc at $(elapsed) s | $(tail -n 1 "$OUT/build-llamacpp.log")"
  if [ "$brc" = 0 ]; then
    llama_case() {  # NAME ARGS...: one process; an abort or fault ends only it
      local name=$1
      shift
      if [ "$(elapsed)" -ge "$DEADLINE" ]; then say "$name: not run: deadline ${DEADLINE}s reached"; return; fi
      rw=$(run "$name" env LD_LIBRARY_PATH="$llama_ld" "$bin" "$@")
      summarise "$name" "$rw"
    }
    llama_case llamacpp_finding1_t58112 f1 58112
    llama_case llamacpp_finding1_t58113 f1 58113
    llama_case llamacpp_finding2_t37449 f2 37449
    llama_case llamacpp_finding2_t37450 f2 37450
    LD_LIBRARY_PATH="$llama_ld" "$bin" f3 plan > "$OUT/llamacpp_finding3_plan.log" 2>&1
    plan=$(cat "$OUT/llamacpp_finding3_plan.log")
    say "llamacpp_finding3_plan: $plan"
    fault_t=$(sed -n 's/.*fault_tokens=\([0-9]*\).*/\1/p' <<< "$plan")
    control_t=$(sed -n 's/.*control_tokens=\([0-9]*\).*/\1/p' <<< "$plan")
    if [ -n "$fault_t" ] && [ -n "$control_t" ]; then
      llama_case "llamacpp_finding3_t$control_t" f3 "$control_t"
      llama_case "llamacpp_finding3_t$fault_t" f3 "$fault_t"
    fi
    llama_case llamacpp_finding4 f4
    llama_case llamacpp_finding5_t2000 f5 2000
    llama_case llamacpp_finding5_t40000 f5 40000
  else
    say "llama.cpp: not run: the build failed (build-llamacpp.log)"
  fi
elif ! wanted llama; then
  say "llama.cpp: not run: not in REPRO_GROUPS=$GROUPS_SEL"
else
  say "llama.cpp: not run: $WHEELS lacks llama-cpp-python-0.3.36-llama.cpp.tar.gz${PREBUILT:+ and $PREBUILT/llama has no build for sm_$cc}"
fi
say "total: $(elapsed) s"
