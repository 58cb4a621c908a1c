#pragma once
// The requests one call of llama.cpp's matmul host code makes of its backend's memory pool, in
// order, as its host code computes them (file:line in llama-cpp-python 0.3.36's
// vendor/llama.cpp/ggml/src/ggml-cuda/). Pure host code. The llamacpp adapters' `upstream`
// variant takes these from ggml's own pool (shim/ggml_shim.cu); here they size it for the plan.
#include <cstdint>
#include <vector>

#include "call_shape.hpp"  // kernels/gguf/plan: the GGUF family's call shape

namespace gridfuzz::llamacpp {

enum class PoolCall { mmvq, mmq };

// The pool requests in bytes, in the order upstream makes them, all live at once:
//   mmvq (mmvq.cu:1500-1501): the q8_1 scratch, src1 rows x GGML_PAD(cols, 512) / 32 x 36 bytes.
//   mmq with ids (mmq.cu:239-241, :257-259): ids_src1 and ids_dst (4 bytes per (token, slot)
//     pair), expert_bounds (4 x (experts + 1)), then the q8_1 scratch: pairs x GGML_PAD(cols, 512)
//     / 128 x 144 bytes plus J_max(ne11) rows of 144 bytes.
//   mmq without ids (mmq.cu:187-189): the scratch of the vectors, plus J_max(ne11) rows.
// J_max (mmq.cuh:372-381) is taken as 0 (its least): its at most 512 rows of 144 bytes, and the
// stream-k fixup buffer a call may add after the scratch (mmq.cuh:1456-1462, up to nsm x 128 x 128
// floats), are left out, so the total is a lower bound by at most 73728 + nsm x 65536 bytes.
std::vector<std::uint64_t> pool_requests(PoolCall call, const gguf::MoeCallShape& s);

}  // namespace gridfuzz::llamacpp
