#pragma once
// The parts of a GGUF MoE GEMV call that do not depend on whose kernels run it: the buffers,
// the compulsory traffic, the random inputs and the float64 CPU reference. gguf.moe_vec/mmvq
// (our kernels) and vllm.moe_vec (upstream's, kernels/vllm) share them, so both are judged
// against the same reference.
//
// Buffers, in this order: x (f32 activations, input), weights (u8 blocks, input), expert_ids
// (int32 [tokens, top_k], input; not for dense mmvq), q8_1 (int32 words [activation rows,
// token_stride], output: the call's scratch, declared an output so it is poisoned, guarded and
// compared), dst ([pairs, rows] f32 or bf16, output).
#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

#include "call_shape.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz::gguf {

struct GemvBuffers {
  static constexpr std::size_t x = 0, weights = 1, ids = 2;
  static std::size_t q8_1(const MoeCallShape& s) { return s.dense ? 2 : 3; }
  static std::size_t dst(const MoeCallShape& s) { return s.dense ? 3 : 4; }
};

// The axes of the call shape that moe_shape_from / mmvq_shape_from read: nvecs (dense) or tokens,
// top_k, experts and proj; then rows, cols, and quant over `quant_names`. `nvecs_launch` is the
// variant whose launch puts the vectors on grid.y ("legacy", "upstream"). The dtype axis is each
// adapter's own (ours: the output dtype; vLLM's: the activation dtype).
std::vector<AxisSpec> gemv_shape_axes(bool dense, const std::string& nvecs_launch,
                                      const std::vector<std::string>& quant_names);

std::vector<BufferSpec> gemv_call_buffers(const MoeCallShape& s);
// Activations read, q8_1 written and read, ids, the weights of the experts that can be hit
// (min(experts, pairs) of them), the output written.
std::uint64_t gemv_call_bytes_moved(const MoeCallShape& s);
void fill_gemv_call_inputs(const MoeCallShape& s, std::uint64_t seed, const BufferSet& bufs, CUstream stream);
// `count` dst samples (half of them in the last 64 pairs, where a geometry bug shows first; a
// quarter in the last row), each with the float64 dot of the CPU-quantized q8_1 row and its
// tolerance; every 8th also checks one q8_1 word of that row bit for bit.
struct GemvReferenceOptions {
  // The kernel rounds its scale products to fp16 (vLLM's q4_1/q5_1 dot,
  // fp16_scale_product_error_bound): the tolerance includes that rounding.
  bool fp16_scale_products = false;
  // One thread adds every block of a row in turn, and the offset of a block may be folded through
  // s or subtracted from the quants (vLLM's MoE MMQ): the plain reference_dot, with
  // gpu_dot_tolerance widened to gpu_dot_fp32_serial_bound.
  bool serial_dot = false;
  // Check q8_1 words of the call's q8_1 buffer (false where the call quantizes into scratch of its
  // own, as llama.cpp's host code does into its memory pool).
  bool check_q8_1_words = true;
  // The kernel's activation blocks keep the scale d in fp32 where the reference's q8_1 block
  // rounds it to fp16 (llama.cpp's MMQ D4 layout): each block's contribution may differ by
  // fp16's relative rounding, 2^-11, so the tolerance adds 2^-11 of the dot's magnitude.
  bool fp32_activation_scale = false;
  // The call's q8_1 quantizer divides with fast-math division (llama.cpp's quantize_q8_1, built
  // with -use_fast_math): the tolerance adds fast_division_q8_1_error_bound (reference_dot.hpp),
  // which allows the other rounding of each element whose x/d lies that close to a tie point.
  bool fast_math_quantizer = false;
  // Host threads for the samples' float64 work (gridfuzz/parallel_for.hpp); 0: cpu_reference_threads().
  // The samples are the same for every count.
  std::size_t threads = 0;
};
std::vector<ReferenceSample> gemv_call_cpu_reference(const MoeCallShape& s, const BufferSet& bufs, std::uint64_t seed,
                                                     std::size_t count, const GemvReferenceOptions& options = {});

}  // namespace gridfuzz::gguf
