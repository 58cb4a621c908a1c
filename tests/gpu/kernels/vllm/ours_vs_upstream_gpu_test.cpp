// On a real GPU: our GGUF GEMVs (gguf.moe_vec / gguf.mmvq, variant fixed) and vLLM's
// (vllm.moe_vec / vllm.mmvq, variant upstream, the unmodified kernels) on the SAME device buffers:
// the same weights, activations and expert ids (fill_inputs of our kernel), each call running its
// own q8_1 quantizer and GEMV. For every weight type it compares the q8_1 scratch word for word and
// the outputs bit for bit. The codebook i-quants must be bit-equal (kernels/gguf/cuda/
// codebook_dot.cuh: same lane mapping, same per-block fp32 sequence); every type must agree within
// twice the oracle's tolerance (each side within it of the float64 reference), checked on the
// first 256 differing outputs with reference_dot's bound. Prints one COMPARE line per type for
// docs/upstream/vllm-gguf.md. Registered before the MMQ tests: their DeepSeek case faults the
// context and must stay last.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "call_shape.hpp"
#include "cuda/upstream_kernels.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::vllm {
namespace {

// Plain device buffers (no guard zones: both calls are legal and their outputs are compared).
class PlainBuffers final : public BufferSet {
 public:
  explicit PlainBuffers(const std::vector<BufferSpec>& specs) : specs_(specs) {
    for (const BufferSpec& s : specs) buffers_.emplace_back(s.bytes());
  }
  using BufferSet::ptr;
  CUdeviceptr ptr(std::size_t i) const override { return buffers_.at(i).get(); }
  std::uint64_t bytes(std::size_t i) const override { return buffers_.at(i).bytes(); }
  void read(std::size_t i, std::uint64_t offset, void* host, std::uint64_t n) const override {
    buffers_.at(i).download(host, n, offset);
  }
  void write(std::size_t i, std::uint64_t offset, const void* host, std::uint64_t n) const override {
    buffers_.at(i).upload(host, n, offset);
  }
  std::size_t index_of(std::string_view name) const override { return buffer_index(specs_, name); }
  template <class T>
  std::vector<T> all(std::size_t i) const {
    std::vector<T> v(buffers_.at(i).bytes() / sizeof(T));
    read(i, 0, v.data(), v.size() * sizeof(T));
    return v;
  }
  void poison(std::size_t i) const { buffers_.at(i).fill_words(0xDEADBEEFu); }

 private:
  std::vector<BufferSpec> specs_;
  std::vector<device::DeviceBuffer> buffers_;
};

Params params_for(const Kernel& k, const std::string& overrides) {
  Params p = Params::defaults(k.axes());
  const Params extra = Params::parse(overrides);
  for (const auto& [name, value] : extra.values()) p.set(name, value);
  return p;
}

struct Comparison {
  std::uint64_t outputs = 0, bit_equal = 0, q8_words = 0, q8_equal = 0, checked = 0, within = 0;
  double max_abs_diff = 0, max_diff_over_tol = 0;
};

class OursVsUpstreamGpu : public testing::KernelGpuTest {
 protected:
  OursVsUpstreamGpu() : KernelGpuTest("the kernels") {}

  // Buffers (gemv_call_parts.hpp): x, weights, [expert_ids,] q8_1, dst, the same for both adapters.
  Comparison compare(bool dense, gguf::QuantType t, const std::string& shape) {
    const auto ours = dense ? gguf::make_mmvq_kernel() : gguf::make_moe_vec_kernel();
    const auto theirs = dense ? make_mmvq_kernel() : make_moe_vec_kernel();
    const std::string overrides = shape + ",quant=" + std::string(gguf::to_string(t));
    const Params po = params_for(*ours, overrides), pt = params_for(*theirs, overrides);
    const auto bound_ours = ours->bind(po, "fixed");
    const auto bound_theirs = theirs->bind(pt, "upstream");
    const auto specs = bound_ours->buffers();
    const auto specs_theirs = bound_theirs->buffers();
    EXPECT_EQ(specs.size(), specs_theirs.size());
    for (std::size_t i = 0; i < specs.size() && i < specs_theirs.size(); ++i)
      EXPECT_EQ(specs[i].bytes(), specs_theirs[i].bytes()) << specs[i].name;
    PlainBuffers bufs(specs);
    const std::size_t q8 = bufs.index_of("q8_1"), dst = bufs.index_of("dst");
    device::Stream stream;
    bound_ours->fill_inputs(20261130, bufs, stream.get());
    device::Launcher launcher;
    bufs.poison(q8);
    bufs.poison(dst);
    bound_ours->launch(limits_, bufs, launcher, stream.get());
    stream.synchronize();
    const auto q8_ours = bufs.all<std::uint32_t>(q8);
    const auto out_ours = bufs.all<float>(dst);
    bufs.poison(q8);
    bufs.poison(dst);
    bound_theirs->launch(limits_, bufs, launcher, stream.get());
    stream.synchronize();
    const auto q8_theirs = bufs.all<std::uint32_t>(q8);
    const auto out_theirs = bufs.all<float>(dst);

    Comparison c;
    c.q8_words = q8_ours.size();
    for (std::size_t i = 0; i < q8_ours.size(); ++i) c.q8_equal += q8_ours[i] == q8_theirs[i];
    c.outputs = out_ours.size();
    const gguf::MoeCallShape shape_of = dense ? gguf::mmvq_shape_from(po) : gguf::moe_shape_from(po);
    const std::uint64_t rows = shape_of.rows, cols = shape_of.cols, row_bytes = shape_of.weight_row_bytes();
    const std::uint64_t stride_words = shape_of.token_stride();
    std::vector<std::uint8_t> w(row_bytes);
    std::vector<gguf::block_q8_1> act(stride_words * 4 / sizeof(gguf::block_q8_1));
    for (std::size_t i = 0; i < out_ours.size(); ++i) {
      std::uint32_t a = 0, b = 0;
      std::memcpy(&a, &out_ours[i], 4);
      std::memcpy(&b, &out_theirs[i], 4);
      if (a == b) {
        ++c.bit_equal;
        continue;
      }
      const double diff = std::fabs(static_cast<double>(out_ours[i]) - static_cast<double>(out_theirs[i]));
      c.max_abs_diff = std::fmax(c.max_abs_diff, std::isnan(diff) ? INFINITY : diff);
      if (c.checked >= 256) continue;
      // The tolerance of this output: its weight row and its activation row's q8_1 (ours; equal to
      // upstream's where q8_equal says so).
      const std::uint64_t pair = i / rows, row = i % rows;
      std::uint64_t expert = 0;
      if (!dense) {
        int id = 0;
        bufs.read(bufs.index_of("expert_ids"), pair * 4, &id, 4);
        expert = static_cast<std::uint64_t>(id);
      }
      bufs.read(bufs.index_of("weights"), (expert * rows + row) * row_bytes, w.data(), row_bytes);
      const std::uint64_t act_row = shape_of.activation_rows() == shape_of.pairs() ? pair : pair / shape_of.top_k;
      std::memcpy(act.data(), q8_ours.data() + act_row * stride_words, act.size() * sizeof(gguf::block_q8_1));
      const double tol = gguf::gpu_dot_tolerance_via_q8_1_sums(t, w.data(), act.data(), cols) +
                   gguf::fp16_scale_product_error_bound(t, w.data(), act.data(), cols);
      ++c.checked;
      c.max_diff_over_tol = std::fmax(c.max_diff_over_tol, diff / tol);
      c.within += diff <= 2 * tol;
    }
    std::cout << "COMPARE " << (dense ? "mmvq " : "moe_vec ") << gguf::to_string(t) << " " << shape << ": outputs "
              << c.bit_equal << "/" << c.outputs << " bit-equal, q8_1 words " << c.q8_equal << "/" << c.q8_words
              << " equal, max |diff| " << c.max_abs_diff << ", differing checked " << c.checked << " within 2*tol "
              << c.within << " (max diff/tol " << c.max_diff_over_tol << ")" << std::endl;
    return c;
  }
};

void expect_agreement(gguf::QuantType t, const Comparison& c) {
  EXPECT_EQ(c.q8_equal, c.q8_words) << "the two q8_1 quantizers differ";
  EXPECT_EQ(c.within, c.checked) << "outputs differ by more than twice the oracle's tolerance";
  if (gguf::is_codebook_type(t)) {
    EXPECT_EQ(c.bit_equal, c.outputs) << "codebook types are expected bit-equal";
  }
}

TEST_F(OursVsUpstreamGpu, MoeVecEveryTypeOnTheSameInputs) {
  for (gguf::QuantType t : moe_vec_quant_types()) {
    SCOPED_TRACE(std::string(gguf::to_string(t)));
    expect_agreement(t, compare(false, t, "rows=1408,cols=2816,experts=128,top_k=8,tokens=64"));
  }
  // Down projection and an odd token count for the seven codebook types.
  for (gguf::QuantType t : moe_vec_quant_types()) {
    if (!gguf::is_codebook_type(t)) continue;
    SCOPED_TRACE(std::string(gguf::to_string(t)));
    expect_agreement(t, compare(false, t, "rows=2816,cols=1536,experts=128,top_k=8,tokens=33,proj=down"));
  }
}

TEST_F(OursVsUpstreamGpu, MmvqEveryTypeOnTheSameInputs) {
  for (gguf::QuantType t : moe_vec_quant_types()) {
    SCOPED_TRACE(std::string(gguf::to_string(t)));
    expect_agreement(t, compare(true, t, "rows=4096,cols=7168,nvecs=8"));
  }
}

}  // namespace
}  // namespace gridfuzz::vllm
