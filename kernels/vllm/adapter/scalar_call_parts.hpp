#pragma once
// The GGUF GEMV call parts (kernels/gguf/adapter/gemv_call_parts) in the activation/output dtype of a
// vLLM call: the same buffers with x and dst of that dtype, the same traffic with 2-byte values
// where it is 16-bit, the same inputs with the activations generated in that dtype, and the same
// float64 CPU reference, fed the activations exactly as they are stored (widened to float, which
// is exact, as upstream's quantize_q8_1 does with static_cast<float>, gguf_kernel.cu:48) and with
// the output rounding of a 16-bit dst added to each tolerance (output_rounding_bound).
#include <cuda.h>

#include <cstdint>
#include <vector>

#include "../cuda/upstream_kernels.hpp"
#include "call_shape.hpp"
#include "gemv_call_parts.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz::vllm {

// `s` is the GGUF shape with its own dtype f32; k is the vLLM call's activation and output dtype.
std::vector<BufferSpec> scalar_call_buffers(const gguf::MoeCallShape& s, ScalarKind k);
std::uint64_t scalar_call_bytes_moved(const gguf::MoeCallShape& s, ScalarKind k);
void fill_scalar_call_inputs(const gguf::MoeCallShape& s, ScalarKind k, std::uint64_t seed, const BufferSet& bufs,
                             CUstream stream);
std::vector<ReferenceSample> scalar_call_cpu_reference(const gguf::MoeCallShape& s, ScalarKind k, const BufferSet& bufs,
                                                       std::uint64_t seed, std::size_t count,
                                                       const gguf::GemvReferenceOptions& options);

// `bufs` with buffer `x` (16-bit values of type k) presented as f32 to read(): offsets and sizes
// in f32 units, each value widened exactly. Every other buffer and call is passed through.
class WidenedActivations final : public BufferSet {
 public:
  WidenedActivations(const BufferSet& bufs, std::size_t x, ScalarKind k) : bufs_(bufs), x_(x), k_(k) {}
  CUdeviceptr ptr(std::size_t index) const override { return bufs_.ptr(index); }
  std::uint64_t bytes(std::size_t index) const override;
  void read(std::size_t index, std::uint64_t offset, void* host, std::uint64_t bytes) const override;
  void write(std::size_t index, std::uint64_t offset, const void* host, std::uint64_t bytes) const override;
  std::size_t index_of(std::string_view name) const override { return bufs_.index_of(name); }

 private:
  const BufferSet& bufs_;
  std::size_t x_;
  ScalarKind k_;
};

}  // namespace gridfuzz::vllm
