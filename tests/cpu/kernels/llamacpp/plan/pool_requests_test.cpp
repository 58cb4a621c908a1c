// What llama.cpp's matmul host code asks of its memory pool (plan/pool_requests.hpp), and the two
// allocation variants of the llamacpp.* kernels: `upstream` (ggml's rules) and `exact` differ in
// the inputs' sizes and, past the VMM pool's 32 GiB, in the plan; nowhere else.
#include <gtest/gtest.h>

#include <vector>

#include "adapter/matmul_kernel.hpp"
#include "plan/ggml_alloc_rules.hpp"
#include "plan/pool_requests.hpp"

namespace gridfuzz::llamacpp {
namespace {

using gguf::MoeCallShape;
using gguf::Projection;
using gguf::QuantType;

MoeCallShape moe(std::uint64_t tokens, std::uint64_t cols, Projection proj = Projection::gate_up) {
  MoeCallShape s;
  s.tokens = tokens;
  s.top_k = 8;
  s.experts = 256;
  s.rows = 2048;
  s.cols = cols;
  s.quant = QuantType::q4_0;
  s.proj = proj;
  return s;
}

TEST(LlamacppPoolRequests, MmqWithIdsAsksForTheIdArraysThenTheScratch) {
  // DeepSeek-V3 gate/up at 4096 tokens: 32768 pairs; the scratch 252 MiB (the exact allocation's
  // fault on the H200, docs/upstream/llama-cpp.md finding 3).
  const std::vector<std::uint64_t> r = pool_requests(PoolCall::mmq, moe(4096, 7168));
  EXPECT_EQ(r, (std::vector<std::uint64_t>{131072, 131072, 1028, 264241152}));
  EXPECT_EQ(vmm_pool_used(r.data(), r.size()), 264504448u);  // 1028 -> 1152
  // cols not a multiple of 512: the scratch rows are GGML_PAD(cols, 512) wide (2880 -> 3072).
  EXPECT_EQ(pool_requests(PoolCall::mmq, moe(10, 2880))[3], 80u * 3072 / 128 * 144);
  // The down projection's scratch is pairs wide too.
  EXPECT_EQ(pool_requests(PoolCall::mmq, moe(10, 2048, Projection::down))[3], 80u * 2048 / 128 * 144);
}

TEST(LlamacppPoolRequests, MmvqAsksForTheQ8_1OfEveryActivationRow) {
  // gate/up: one activation row per token; down: one per pair. 36 bytes per 32 values.
  EXPECT_EQ(pool_requests(PoolCall::mmvq, moe(8, 7168)), (std::vector<std::uint64_t>{8u * 7168 / 32 * 36}));
  EXPECT_EQ(pool_requests(PoolCall::mmvq, moe(8, 2880, Projection::down)),
            (std::vector<std::uint64_t>{64u * 3072 / 32 * 36}));
}

Params mmq_params(const Kernel& k, const std::string& tokens, const std::string& cols) {
  Params p = Params::defaults(k.axes());
  p.set("tokens", tokens);
  p.set("cols", cols);
  return p;
}

TEST(LlamacppAllocVariants, UpstreamPadsTheInputsAsGgmlDoesAndExactDoesNot) {
  const auto k = make_matmul_kernel(Entry::mmq);
  EXPECT_EQ(k->variants(), (std::vector<std::string>{"upstream", "exact"}));
  // gpt-oss-sized rows: 2880 columns of q4_0, 256 experts x 2048 rows.
  const Params p = mmq_params(*k, "9", "2880");
  const auto up = k->buffers(p, "upstream"), ex = k->buffers(p, "exact");
  ASSERT_EQ(up.size(), 4u);
  ASSERT_EQ(ex.size(), 4u);
  const std::uint64_t weights = 256ull * 2048 * 2880 / 32 * 18;
  EXPECT_EQ(ex[1].bytes(), weights);
  // ggml's alloc size: the last row padded by 192 values (6 blocks), then to 128 bytes.
  EXPECT_EQ(up[1].bytes(), (weights + 6 * 18 + 127) / 128 * 128);
  // x: 9 rows of 2880 f32 = 103680 bytes, a multiple of 128 already; ids: 72 x 4 = 288 -> 384.
  EXPECT_EQ(up[0].bytes(), ex[0].bytes());
  EXPECT_EQ(ex[2].bytes(), 288u);
  EXPECT_EQ(up[2].bytes(), 384u);
  // dst is never padded: every value of it is checked.
  EXPECT_EQ(up[3].name, "dst");
  EXPECT_EQ(up[3].bytes(), ex[3].bytes());
}

TEST(LlamacppAllocVariants, OnlyUpstreamStopsWhereTheVmmPoolPasses32GiB) {
  const auto k = make_matmul_kernel(Entry::mmq);
  const DeviceLimits h200 = *device_preset("sm_90");
  // 7168 columns, top_k 8: 64512 bytes of scratch per token; 532576 tokens pass 2^35, but
  // mmid.cu:147 asserts first past 58112 tokens. MUL_MAT (op=mul_mat) has no such bound:
  // 4194304 vectors of 8192 columns are a 36 GiB scratch.
  Params p = mmq_params(*k, "4194304", "8192");
  p.set("op", "mul_mat");
  const LaunchPlan up = k->plan(p, "upstream", h200), ex = k->plan(p, "exact", h200);
  ASSERT_TRUE(up.host_error.has_value());
  EXPECT_NE(up.host_error->find("CUDA_POOL_VMM_MAX_SIZE"), std::string::npos) << *up.host_error;
  EXPECT_TRUE(up.launches.empty());
  EXPECT_FALSE(ex.host_error.has_value()) << *ex.host_error;
  // Below it both variants plan the same launches.
  const Params q = mmq_params(*k, "4096", "7168");
  const LaunchPlan a = k->plan(q, "upstream", h200), b = k->plan(q, "exact", h200);
  EXPECT_FALSE(a.host_error.has_value());
  ASSERT_EQ(a.launches.size(), b.launches.size());
  for (std::size_t i = 0; i < a.launches.size(); ++i) EXPECT_EQ(a.launches[i].name, b.launches[i].name);
}

}  // namespace
}  // namespace gridfuzz::llamacpp
