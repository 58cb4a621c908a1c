# Upstream kernels (docs/UPSTREAM.md): packages pinned in upstream/manifest.txt, fetched and
# checked by scripts/fetch-upstream into a cache outside the source tree, compiled unmodified.
#   GRIDFUZZ_UPSTREAM         build them when their sources are there (default ON)
#   GRIDFUZZ_UPSTREAM_CACHE   the cache scripts/fetch-upstream fills (same default as the script)
#   GRIDFUZZ_VLLM_GGUF_DIR    a vllm-gguf-plugin source tree or unpacked wheel to use instead of the
#                             pinned package (a folder holding csrc/gguf or vllm_gguf_plugin/csrc/gguf)
# Sets GRIDFUZZ_HAS_VLLM and GRIDFUZZ_VLLM_CSRC (the folder holding cuda_compat.h and gguf/).
option(GRIDFUZZ_UPSTREAM "Build the upstream production kernels (vLLM GGUF) when their sources are present" ON)

# The version of `package` pinned in upstream/manifest.txt (one place to change it), into `out`.
function(gridfuzz_pinned_version out package)
  file(STRINGS ${PROJECT_SOURCE_DIR}/upstream/manifest.txt _line REGEX "^${package}[ \t]")
  string(REGEX REPLACE "^${package}[ \t]+([^ \t]+).*" "\\1" _version "${_line}")
  set(${out} "${_version}" PARENT_SCOPE)
endfunction()

# A package's sources: the first folder <root>/<suffix> (SUFFIXES) holding every one of FILES, into
# `out` ("" when none). <root> is the folder the variable `override_var` names when set, else
# `pinned_root`. Says which, calling the package `what`.
function(gridfuzz_find_upstream out what override_var pinned_root)
  cmake_parse_arguments(_arg "" "" "SUFFIXES;FILES" ${ARGN})
  if(${override_var})
    set(_root "${${override_var}}")
  else()
    set(_root "${pinned_root}")
  endif()
  set(_found "")
  foreach(_suffix ${_arg_SUFFIXES})
    if(NOT _found)
      set(_found "${_root}/${_suffix}")
      foreach(_f ${_arg_FILES})
        if(NOT EXISTS "${_found}/${_f}")
          set(_found "")
        endif()
      endforeach()
    endif()
  endforeach()
  if(_found)
    message(STATUS "gridfuzz: ${what} from ${_found}")
  else()
    message(STATUS "gridfuzz: ${what} left out: no sources under ${_root} "
                   "(run scripts/fetch-upstream, or set ${override_var})")
  endif()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

if(DEFINED ENV{GRIDFUZZ_UPSTREAM_CACHE})
  set(_cache_default "$ENV{GRIDFUZZ_UPSTREAM_CACHE}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_cache_default "$ENV{XDG_CACHE_HOME}/gridfuzz/upstream")
else()
  set(_cache_default "$ENV{HOME}/.cache/gridfuzz/upstream")
endif()
set(GRIDFUZZ_UPSTREAM_CACHE "${_cache_default}" CACHE PATH "Where scripts/fetch-upstream unpacks the pinned packages")
set(GRIDFUZZ_VLLM_GGUF_DIR "$ENV{GRIDFUZZ_VLLM_GGUF_DIR}" CACHE PATH
    "vllm-gguf-plugin sources to build instead of the pinned package")

gridfuzz_pinned_version(GRIDFUZZ_VLLM_GGUF_VERSION vllm-gguf-plugin)

set(GRIDFUZZ_HAS_VLLM OFF)
set(GRIDFUZZ_VLLM_CSRC "")
if(GRIDFUZZ_UPSTREAM)
  gridfuzz_find_upstream(GRIDFUZZ_VLLM_CSRC "vLLM GGUF kernels" GRIDFUZZ_VLLM_GGUF_DIR
                         "${GRIDFUZZ_UPSTREAM_CACHE}/vllm-gguf-plugin-${GRIDFUZZ_VLLM_GGUF_VERSION}"
                         SUFFIXES vllm_gguf_plugin/csrc csrc FILES gguf/gguf_kernel.cu cuda_compat.h)
  if(GRIDFUZZ_VLLM_CSRC)
    set(GRIDFUZZ_HAS_VLLM ON)
  endif()
else()
  message(STATUS "gridfuzz: upstream kernels left out (GRIDFUZZ_UPSTREAM=OFF)")
endif()

# llama.cpp's CUDA matmuls (mmvq, mmq, quantize, mmid), from the llama-cpp-python sdist, which
# vendors llama.cpp under vendor/llama.cpp (docs/upstream/llama-cpp.md).
#   GRIDFUZZ_LLAMACPP_DIR   a llama.cpp checkout or an unpacked llama-cpp-python sdist to use instead
#                           of the pinned package (a folder holding ggml/src/ggml-cuda, or
#                           <sdist>/vendor/llama.cpp/ggml/src/ggml-cuda)
# Sets GRIDFUZZ_HAS_LLAMACPP and GRIDFUZZ_LLAMACPP_GGML (the folder holding include/ and src/).
#   GRIDFUZZ_LLAMACPP       build them when their sources are there (default ON; scripts/sanitize
#                           turns it off: their nvcc time would count twice in CI)
option(GRIDFUZZ_LLAMACPP "Build llama.cpp's CUDA matmuls when their sources are present" ON)
set(GRIDFUZZ_LLAMACPP_DIR "$ENV{GRIDFUZZ_LLAMACPP_DIR}" CACHE PATH
    "llama.cpp sources (or an unpacked llama-cpp-python sdist) to build instead of the pinned package")
gridfuzz_pinned_version(GRIDFUZZ_LLAMACPP_VERSION llama-cpp-python)

set(GRIDFUZZ_HAS_LLAMACPP OFF)
set(GRIDFUZZ_LLAMACPP_GGML "")
if(GRIDFUZZ_UPSTREAM AND NOT GRIDFUZZ_LLAMACPP)
  message(STATUS "gridfuzz: llama.cpp CUDA matmuls left out (GRIDFUZZ_LLAMACPP=OFF)")
elseif(GRIDFUZZ_UPSTREAM)
  set(_sdist "llama-cpp-python-${GRIDFUZZ_LLAMACPP_VERSION}/llama_cpp_python-${GRIDFUZZ_LLAMACPP_VERSION}")
  gridfuzz_find_upstream(GRIDFUZZ_LLAMACPP_GGML "llama.cpp CUDA matmuls" GRIDFUZZ_LLAMACPP_DIR
                         "${GRIDFUZZ_UPSTREAM_CACHE}/${_sdist}"
                         SUFFIXES vendor/llama.cpp/ggml ggml FILES src/ggml-cuda/mmvq.cu include/ggml.h)
  if(GRIDFUZZ_LLAMACPP_GGML)
    set(GRIDFUZZ_HAS_LLAMACPP ON)
  endif()
endif()

# MLX's CUDA quantized matmul (issue 16; docs/upstream/mlx.md): MLX's sources from a checkout the
# user names, the CuTe/CUTLASS/CCCL headers MLX compiles them with from the pinned mlx-cuda-13
# wheel (upstream/manifest.txt, fetched by scripts/fetch-upstream).
#   GRIDFUZZ_MLX_DIR   an MLX source tree at commit 846d176 (the folder holding mlx/backend/cuda);
#                      from the environment variable of the same name, or -DGRIDFUZZ_MLX_DIR=...
#                      Empty or incomplete: the mlx.* kernels are left out (said once).
# Sets GRIDFUZZ_HAS_MLX, GRIDFUZZ_MLX_DIR and GRIDFUZZ_MLX_INCLUDE (the wheel's mlx/include).
set(GRIDFUZZ_MLX_DIR "$ENV{GRIDFUZZ_MLX_DIR}" CACHE PATH "MLX sources at commit 846d176 (empty: mlx.* left out)")
gridfuzz_pinned_version(GRIDFUZZ_MLX_CUDA_VERSION mlx-cuda-13)
set(GRIDFUZZ_MLX_INCLUDE "${GRIDFUZZ_UPSTREAM_CACHE}/mlx-cuda-13-${GRIDFUZZ_MLX_CUDA_VERSION}/mlx/include")
set(GRIDFUZZ_HAS_MLX OFF)
if(GRIDFUZZ_UPSTREAM)
  set(_mlx_missing "")
  foreach(_f mlx/backend/cuda/quantized/qmm/qmm.cu mlx/backend/cuda/quantized/qmm/qmm_sm80.cu
             mlx/backend/cuda/quantized/qmm/qmv.cu mlx/backend/cuda/quantized/qmm/qmm_utils.h
             mlx/backend/cuda/quantized/qmm/qmm.h mlx/backend/cuda/device/qmm_sm80.cuh
             mlx/backend/cuda/cutlass_utils.cuh mlx/backend/cuda/kernel_utils.cuh mlx/dtype_utils.h)
    if(NOT EXISTS "${GRIDFUZZ_MLX_DIR}/${_f}")
      list(APPEND _mlx_missing ${_f})
    endif()
  endforeach()
  if(NOT GRIDFUZZ_MLX_DIR)
    message(STATUS "gridfuzz: MLX kernels left out: GRIDFUZZ_MLX_DIR is not set (an MLX checkout at 846d176)")
  elseif(_mlx_missing)
    list(GET _mlx_missing 0 _first)
    message(STATUS "gridfuzz: MLX kernels left out: ${GRIDFUZZ_MLX_DIR} has no ${_first}")
  elseif(NOT EXISTS "${GRIDFUZZ_MLX_INCLUDE}/cute/tensor.hpp" OR NOT EXISTS "${GRIDFUZZ_MLX_INCLUDE}/cccl/cuda/std/array")
    message(STATUS "gridfuzz: MLX kernels left out: no CuTe/CCCL headers under ${GRIDFUZZ_MLX_INCLUDE} "
                   "(run scripts/fetch-upstream)")
  else()
    set(GRIDFUZZ_HAS_MLX ON)
    message(STATUS "gridfuzz: MLX kernels from ${GRIDFUZZ_MLX_DIR} with headers of mlx-cuda-13 ${GRIDFUZZ_MLX_CUDA_VERSION}")
  endif()
endif()
