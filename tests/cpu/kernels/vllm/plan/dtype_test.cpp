// vLLM's kernels in the activation/output dtypes upstream dispatches (f32, f16, bf16:
// VLLM_DISPATCH_FLOATING_TYPES, gguf_kernel.cu:116/:306/:408), on the CPU: the `dtype` axis of each
// kernel, the buffers and traffic of a 16-bit case, plans that do not depend on the dtype (upstream's
// geometry and index arithmetic are in elements), and the CPU reference of a 16-bit case: it reads
// the activations as they were rounded and adds the output type's rounding to each tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adapter/activation_dtype.hpp"
#include "adapter/scalar_call_parts.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gemv_inputs.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "host_buffers.hpp"
#include "plan_test_support.hpp"
#include "threads_check.hpp"

namespace gridfuzz::vllm {
namespace {

using gguf::testing::params_for;
using gguf::testing::sm90;
using gridfuzz::testing::HostBuffers;

struct Named {
  std::shared_ptr<const Kernel> kernel;
  std::vector<std::string> shapes;  // overrides, boundary shapes included
};

std::vector<Named> all_kernels() {
  return {
      {make_moe_vec_kernel(), {"", "tokens=8191", "tokens=8192", "tokens=8192,proj=down", "tokens=3,quant=iq4_xs"}},
      {make_mmvq_kernel(), {"", "nvecs=65535", "nvecs=65536", "nvecs=200000,quant=q4_K"}},
      {make_moe_mmq_kernel(), {"", "tokens=1000000", "tokens=300,quant=q4_K,rows=1000"}},
      {make_quantize_q8_1_kernel(), {"", "rows=65536", "rows=40000000,cols=100"}},
  };
}

Params with_dtype(const Kernel& k, const std::string& overrides, const std::string& dtype) {
  Params p = params_for(k, overrides);
  p.set("dtype", dtype);
  return p;
}

TEST(VllmDtype, EveryKernelOffersF32F16Bf16DefaultF32) {
  for (const Named& n : all_kernels()) {
    SCOPED_TRACE(n.kernel->name());
    bool found = false;
    for (const AxisSpec& a : n.kernel->axes()) {
      if (a.name != "dtype") continue;
      found = true;
      EXPECT_EQ(a.choices, (std::vector<std::string>{"f32", "f16", "bf16"}));
      EXPECT_EQ(a.default_value, "f32");
    }
    EXPECT_TRUE(found);
    for (const char* d : {"f32", "f16", "bf16"}) EXPECT_FALSE(n.kernel->check(with_dtype(*n.kernel, "", d)));
    const auto bad = n.kernel->check(with_dtype(*n.kernel, "", "f64"));
    ASSERT_TRUE(bad.has_value());
    EXPECT_NE(bad->find("dtype"), std::string::npos) << *bad;
  }
}

TEST(VllmDtype, SixteenBitCasesHaveSixteenBitXAndDstAndTheSameOtherBuffers) {
  for (const Named& n : all_kernels()) {
    SCOPED_TRACE(n.kernel->name());
    const auto f32 = n.kernel->bind(with_dtype(*n.kernel, "", "f32"), "upstream");
    const std::vector<BufferSpec> b32 = f32->buffers();
    for (const auto& [dtype, type] : {std::pair{"f16", ElementType::f16}, std::pair{"bf16", ElementType::bf16}}) {
      const auto c = n.kernel->bind(with_dtype(*n.kernel, "", dtype), "upstream");
      const std::vector<BufferSpec> b = c->buffers();
      ASSERT_EQ(b.size(), b32.size());
      std::uint64_t narrowed = 0;  // bytes saved by the 2-byte x and dst
      for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_EQ(b[i].name, b32[i].name);
        EXPECT_EQ(b[i].elements, b32[i].elements) << b[i].name;
        EXPECT_EQ(b[i].role, b32[i].role) << b[i].name;
        if (b[i].name == "x" || b[i].name == "dst") {
          EXPECT_EQ(b32[i].type, ElementType::f32) << b[i].name;
          EXPECT_EQ(b[i].type, type) << b[i].name;
          narrowed += 2 * b[i].elements;
        } else {
          EXPECT_EQ(b[i].type, b32[i].type) << b[i].name;
        }
      }
      // x read once and dst written once: the traffic drops by 2 bytes per value of each.
      EXPECT_GT(narrowed, 0u);
      EXPECT_EQ(f32->bytes_moved() - c->bytes_moved(), narrowed);
    }
  }
}

void expect_same_plan(const LaunchPlan& a, const LaunchPlan& b) {
  ASSERT_EQ(a.launches.size(), b.launches.size());
  for (std::size_t i = 0; i < a.launches.size(); ++i) {
    EXPECT_EQ(a.launches[i].name, b.launches[i].name);
    EXPECT_EQ(a.launches[i].grid, b.launches[i].grid) << a.launches[i].name;
    EXPECT_EQ(a.launches[i].block, b.launches[i].block) << a.launches[i].name;
    EXPECT_EQ(a.launches[i].dynamic_smem_bytes, b.launches[i].dynamic_smem_bytes) << a.launches[i].name;
  }
  ASSERT_EQ(a.indices.size(), b.indices.size());
  for (std::size_t i = 0; i < a.indices.size(); ++i) {
    EXPECT_EQ(a.indices[i].name, b.indices[i].name);
    EXPECT_TRUE(a.indices[i].max_value == b.indices[i].max_value) << a.indices[i].name;
    EXPECT_EQ(a.indices[i].type, b.indices[i].type) << a.indices[i].name;
    EXPECT_EQ(a.indices[i].unit, b.indices[i].unit) << a.indices[i].name;
  }
  EXPECT_EQ(a.host_error, b.host_error);
}

// Upstream's host code computes the same grid and the same int element offsets for every
// scalar_t (gguf_kernel.cu:72-86, moe_vec.cuh, mmvq.cuh, moe.cuh take no sizeof(scalar_t)).
TEST(VllmDtype, PlansDoNotDependOnTheDtype) {
  for (const Named& n : all_kernels())
    for (const std::string& shape : n.shapes)
      for (const char* variant : {"upstream", "chunked"}) {
        SCOPED_TRACE(n.kernel->name() + " " + shape + " " + variant);
        const LaunchPlan f32 = n.kernel->plan(with_dtype(*n.kernel, shape, "f32"), variant, sm90());
        EXPECT_FALSE(f32.launches.empty() && !f32.host_error);
        for (const char* d : {"f16", "bf16"})
          expect_same_plan(f32, n.kernel->plan(with_dtype(*n.kernel, shape, d), variant, sm90()));
      }
}

// IEEE binary16 and bfloat16 round to nearest even, written out here independently of the code
// under test (g++'s _Float16 for f16; bfloat16 as the top half of a float, rounded on the bits).
std::uint16_t to_f16(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  std::uint16_t bits = 0;
  std::memcpy(&bits, &h, 2);
  return bits;
}
float from_f16(std::uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}
std::uint16_t to_bf16(float v) {
  std::uint32_t u = 0;
  std::memcpy(&u, &v, 4);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
float from_bf16(std::uint16_t bits) {
  const std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(VllmDtype, Widen16IsExactAndTheRoundingBoundCoversRoundToNearest) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-30, 15.9);  // up to 2^15.9 < 65504
  for (int i = 0; i < 200000; ++i) {
    const float v = static_cast<float>((rng() & 1 ? -1 : 1) * std::exp2(exponent(rng)));
    const std::uint16_t h = to_f16(v), b = to_bf16(v);
    EXPECT_EQ(widen16(ScalarKind::f16, h), from_f16(h));
    EXPECT_EQ(widen16(ScalarKind::bf16, b), from_bf16(b));
    ASSERT_LE(std::fabs(static_cast<double>(from_f16(h)) - v), output_rounding_bound(ScalarKind::f16, std::fabs(v)))
        << v;
    ASSERT_LE(std::fabs(static_cast<double>(from_bf16(b)) - v), output_rounding_bound(ScalarKind::bf16, std::fabs(v)))
        << v;
  }
  // A tie just above 1 rounds by half an ulp: 2^-11 (f16), 2^-8 (bf16), the unit roundoffs.
  EXPECT_EQ(std::fabs(from_f16(to_f16(1.0f + 0x1p-11f)) - (1.0f + 0x1p-11f)), 0x1p-11f);
  EXPECT_EQ(std::fabs(from_bf16(to_bf16(1.0f + 0x1p-8f)) - (1.0f + 0x1p-8f)), 0x1p-8f);
  EXPECT_LE(0x1p-11, output_rounding_bound(ScalarKind::f16, 1.0 + 0x1p-11));
  EXPECT_LE(0x1p-8, output_rounding_bound(ScalarKind::bf16, 1.0 + 0x1p-8));
  EXPECT_EQ(output_rounding_bound(ScalarKind::f32, 123.0), 0.0);
}

// The 16-bit case's reference equals the f32 case's over the widened activations, element for
// element, with the output rounding added to each dst tolerance; over the unrounded activations it
// differs (so the rounded values are the ones read).
void check_reference(const Kernel& k, const std::string& shape, const std::string& dtype) {
  SCOPED_TRACE(k.name() + " " + shape + " " + dtype);
  const ScalarKind kind = parse_scalar_kind(dtype);
  const auto c16 = k.bind(with_dtype(k, shape, dtype), "chunked");
  const auto c32 = k.bind(with_dtype(k, shape, "f32"), "chunked");
  HostBuffers h16(c16->buffers()), h32(c32->buffers()), raw32(c32->buffers());
  std::mt19937_64 rng(20261130);
  // Activations: random sign, magnitude in [0.25, 1), as the GPU fill draws them.
  const std::size_t n = h16.raw("x").size() / 2;
  for (std::size_t i = 0; i < n; ++i) {
    const float v = static_cast<float>((rng() & 1 ? -1 : 1) * (0.25 + 0.75 * std::ldexp(static_cast<double>(rng() >> 11), -53)));
    const std::uint16_t bits = kind == ScalarKind::f16 ? to_f16(v) : to_bf16(v);
    const float widened = kind == ScalarKind::f16 ? from_f16(bits) : from_bf16(bits);
    std::memcpy(h16.raw("x").data() + 2 * i, &bits, 2);
    std::memcpy(h32.raw("x").data() + 4 * i, &widened, 4);
    std::memcpy(raw32.raw("x").data() + 4 * i, &v, 4);
  }
  // q8_0 weights: a d of about 0.01 and random quants in every 34-byte block.
  std::vector<std::uint8_t>& w = h16.raw("weights");
  for (std::size_t b = 0; b < w.size(); b += 34) {
    const std::uint16_t d = to_f16(0.005f + 0.01f * static_cast<float>(rng() % 1000) / 1000.0f);
    std::memcpy(&w[b], &d, 2);
    for (std::size_t j = 2; j < 34; ++j) w[b + j] = static_cast<std::uint8_t>(rng());
  }
  h32.raw("weights") = w;
  raw32.raw("weights") = w;
  if (k.name() != "vllm.mmvq") {
    std::vector<std::uint8_t>& ids = h16.raw("expert_ids");
    for (std::size_t i = 0; i < ids.size(); i += 4) {
      const int id = static_cast<int>(rng() % 4);
      std::memcpy(&ids[i], &id, 4);
    }
    h32.raw("expert_ids") = ids;
    raw32.raw("expert_ids") = ids;
  }
  const std::vector<ReferenceSample> r16 = c16->cpu_reference(h16, 99, 64);
  const std::vector<ReferenceSample> r32 = c32->cpu_reference(h32, 99, 64);
  const std::vector<ReferenceSample> unrounded = c32->cpu_reference(raw32, 99, 64);
  ASSERT_EQ(r16.size(), r32.size());
  ASSERT_EQ(r16.size(), unrounded.size());
  const std::size_t dst = h16.index_of("dst");
  const double u = kind == ScalarKind::f16 ? 0x1p-11 : 0x1p-8;
  std::size_t dst_samples = 0, differ = 0;
  for (std::size_t i = 0; i < r16.size(); ++i) {
    EXPECT_EQ(r16[i].buffer, r32[i].buffer);
    EXPECT_EQ(r16[i].element, r32[i].element);
    EXPECT_EQ(r16[i].expected, r32[i].expected);
    EXPECT_EQ(r16[i].rel_tol, r32[i].rel_tol);
    if (r16[i].buffer != dst) {
      EXPECT_EQ(r16[i].abs_tol, r32[i].abs_tol);
      continue;
    }
    ++dst_samples;
    differ += r16[i].expected != unrounded[i].expected;
    const double added = r16[i].abs_tol - r32[i].abs_tol;
    EXPECT_GE(added, u * std::fabs(r16[i].expected));
    EXPECT_LE(added, u * (std::fabs(r16[i].expected) + r32[i].abs_tol) * (1 + 1e-12) + 0x1p-25);
  }
  EXPECT_GE(dst_samples, 32u);
  EXPECT_GT(differ, 0u) << "the reference did not read the rounded activations";
}

TEST(VllmDtype, CpuReferenceReadsTheRoundedActivationsAndAddsTheOutputRounding) {
  const std::string moe = "tokens=3,top_k=2,experts=4,rows=16,cols=256,quant=q8_0";
  for (const char* dtype : {"f16", "bf16"}) {
    check_reference(*make_moe_vec_kernel(), moe, dtype);
    check_reference(*make_moe_vec_kernel(), moe + ",proj=down", dtype);
    check_reference(*make_mmvq_kernel(), "nvecs=3,rows=16,cols=256,quant=q8_0", dtype);
  }
}

// Every vLLM kernel's CPU reference, in every dtype, gives the same samples on 1 thread and on
// several, and reads its buffers (through the widened activations too) on the calling thread.
TEST(VllmCpuReference, SamplesDoNotDependOnTheThreadCount) {
  const std::string moe = "tokens=3,top_k=2,experts=4,rows=16,cols=256";
  const std::vector<std::pair<std::shared_ptr<const Kernel>, std::string>> cases = {
      {make_moe_vec_kernel(), moe},
      {make_moe_vec_kernel(), moe + ",proj=down"},
      {make_mmvq_kernel(), "nvecs=3,rows=16,cols=256"},
      {make_moe_mmq_kernel(), moe},
  };
  for (const auto& [k, shape] : cases) {
    for (const char* quant : {"q4_1", "q8_0", "q4_K"}) {  // q4_1: the fp16 scale products
      for (const char* dtype : {"f32", "f16", "bf16"}) {
        const Params p = with_dtype(*k, shape + ",quant=" + quant, dtype);
        SCOPED_TRACE(k->name() + " " + p.to_string());
        ASSERT_EQ(k->check(p), std::nullopt);
        const auto c = k->bind(p, "chunked");
        HostBuffers bufs(c->buffers());
        gguf::testing::fill_gemv_inputs(p, bufs, 20261201);
        gridfuzz::testing::expect_same_samples_at_any_thread_count(*c, bufs, 99, 48);
      }
    }
  }
}

}  // namespace
}  // namespace gridfuzz::vllm
