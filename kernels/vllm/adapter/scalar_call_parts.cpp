#include "scalar_call_parts.hpp"

#include <cmath>
#include <stdexcept>

#include "../cuda/activation_fill.hpp"
#include "activation_dtype.hpp"
#include "random_fill.hpp"

namespace gridfuzz::vllm {

using gguf::GemvBuffers;

std::vector<BufferSpec> scalar_call_buffers(const gguf::MoeCallShape& s, ScalarKind k) {
  std::vector<BufferSpec> b = gguf::gemv_call_buffers(s);
  b[GemvBuffers::x].type = element_type(k);
  b[GemvBuffers::dst(s)].type = element_type(k);
  return b;
}

std::uint64_t scalar_call_bytes_moved(const gguf::MoeCallShape& s, ScalarKind k) {
  // gemv_call_bytes_moved counts 4 bytes per activation and per output value (s.dtype is f32).
  const std::uint64_t narrower = 4 - scalar_bytes(k);
  return gguf::gemv_call_bytes_moved(s) - narrower * (s.activation_rows() * s.cols + s.pairs() * s.rows);
}

void fill_scalar_call_inputs(const gguf::MoeCallShape& s, ScalarKind k, std::uint64_t seed, const BufferSet& bufs,
                             CUstream stream) {
  fill_activations(k, bufs.ptr(GemvBuffers::x), s.activation_rows() * s.cols, seed, stream);
  gguf::fill_weight_blocks(bufs.as<std::uint8_t>(GemvBuffers::weights),
                           s.weight_bytes() / gguf::quant_traits(s.quant).block_bytes, s.quant, seed, stream);
  if (!s.dense) gguf::fill_expert_ids(bufs.as<int>(GemvBuffers::ids), s.pairs(), s.experts, seed, stream);
}

std::vector<ReferenceSample> scalar_call_cpu_reference(const gguf::MoeCallShape& s, ScalarKind k, const BufferSet& bufs,
                                                       std::uint64_t seed, std::size_t count,
                                                       const gguf::GemvReferenceOptions& options) {
  if (k == ScalarKind::f32) return gguf::gemv_call_cpu_reference(s, bufs, seed, count, options);
  const WidenedActivations widened(bufs, GemvBuffers::x, k);
  std::vector<ReferenceSample> samples = gguf::gemv_call_cpu_reference(s, widened, seed, count, options);
  // The kernel's float result g is within abs_tol of the expected value; its store rounds g to k.
  for (ReferenceSample& r : samples)
    if (r.buffer == GemvBuffers::dst(s)) r.abs_tol += output_rounding_bound(k, std::fabs(r.expected) + r.abs_tol);
  return samples;
}

std::uint64_t WidenedActivations::bytes(std::size_t index) const {
  return index == x_ ? bufs_.bytes(index) / 2 * 4 : bufs_.bytes(index);
}

void WidenedActivations::read(std::size_t index, std::uint64_t offset, void* host, std::uint64_t bytes) const {
  if (index != x_) return bufs_.read(index, offset, host, bytes);
  if (offset % 4 != 0 || bytes % 4 != 0)
    throw std::logic_error("vllm: a widened activation read must be whole f32 values");
  std::vector<std::uint16_t> raw(bytes / 4);
  bufs_.read(index, offset / 2, raw.data(), raw.size() * 2);
  auto* out = static_cast<float*>(host);
  for (std::size_t i = 0; i < raw.size(); ++i) out[i] = widen16(k_, raw[i]);
}

void WidenedActivations::write(std::size_t index, std::uint64_t offset, const void* host, std::uint64_t bytes) const {
  if (index == x_) throw std::logic_error("vllm: the widened activations are read-only");
  bufs_.write(index, offset, host, bytes);
}

}  // namespace gridfuzz::vllm
