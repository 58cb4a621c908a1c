// On a real GPU, through gridfuzz::run_case: the GGUF MoE GEMV family's legacy variants fail
// exactly where predicted (with the driver's refusal), and the fixed ones equal the split-batch
// reference bit for bit and match the CPU reference on >= 256 sampled outputs, for every type (19
// with the codebook i-quants; their comparison with vLLM's kernels on the same inputs is in
// tests/gpu/kernels/vllm/ours_vs_upstream_gpu_test.cpp, which has upstream's kernels to compare with).
// Each case prints one line (kernel, variant, params, verdict, oracle) for evidence/gpu-results-gguf.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::gguf {
namespace {

class GgufGpu : public testing::KernelGpuTest {
 protected:
  GgufGpu() : KernelGpuTest("the GGUF GPU cases", 20261129) {}

  // Passed, bit-exact against the split reference, nothing unwritten, >= 256 CPU samples all good.
  static void expect_pass(const CaseResult& r) {
    EXPECT_EQ(r.oracle.split_mismatches, 0u);
    KernelGpuTest::expect_pass(r);
  }
};

const std::string kGemma = "rows=1408,cols=2816,experts=128,top_k=8";

TEST_F(GgufGpu, FixedMoeVecAt8192TokensEqualsSplitAndCpuForEveryType) {
  const auto k = make_moe_vec_kernel();
  for (QuantType t : weight_quant_types()) {
    SCOPED_TRACE(std::string(to_string(t)));
    expect_pass(run(*k, "fixed", kGemma + ",tokens=8192,quant=" + std::string(to_string(t))));
  }
}

TEST_F(GgufGpu, LegacyMoeVecRefusedAt8192AndPassesAt8191ForEveryType) {
  const auto k = make_moe_vec_kernel();
  for (QuantType t : weight_quant_types()) {
    SCOPED_TRACE(std::string(to_string(t)));
    const std::string q = ",quant=" + std::string(to_string(t));
    const CaseResult bad = run(*k, "legacy", kGemma + ",tokens=8192" + q);
    EXPECT_EQ(bad.prediction.outcome, "refuse:grid.z");
    EXPECT_TRUE(bad.observed.to_string() == "refuse:CUDA_ERROR_INVALID_VALUE" || bad.observed.to_string() == "refuse:CUDA_ERROR_INVALID_CONFIGURATION")
        << bad.observed.to_string();
    EXPECT_EQ(bad.verdict.to_string(), "fail:refused");  // no ledger here: an expected bug is still a failure
    EXPECT_NE(bad.detail.find("grid=(1408,1,65536)"), std::string::npos) << bad.detail;
    expect_pass(run(*k, "legacy", kGemma + ",tokens=8191" + q));
  }
}

TEST_F(GgufGpu, ZchunkAndRowsXMoeVecAt8192TokensPassForEveryType) {
  const auto k = make_moe_vec_kernel();
  for (QuantType t : weight_quant_types()) {
    SCOPED_TRACE(std::string(to_string(t)));
    expect_pass(run(*k, "zchunk", kGemma + ",tokens=8192,quant=" + std::string(to_string(t))));
  }
  expect_pass(run(*k, "rows_x", kGemma + ",tokens=8192,quant=q4_K"));
  expect_pass(run(*k, "pairs_x", kGemma + ",tokens=8192,quant=q4_0"));
  // fixed below kPairsOnXFromPairs pairs takes the rows-on-x layout: check it too.
  expect_pass(run(*k, "fixed", kGemma + ",tokens=8,quant=q4_0"));
  expect_pass(run(*k, "fixed", kGemma + ",tokens=1,quant=q6_K"));
}

TEST_F(GgufGpu, Bf16OutputPasses) {
  const auto k = make_moe_vec_kernel();
  std::vector<std::string> types = {"q4_0", "q6_K", "iq4_xs"};
  if (kHasCodebookTypes) types.insert(types.end(), {"iq3_s", "iq1_m"});
  for (const std::string& q : types)
    expect_pass(run(*k, "fixed", kGemma + ",tokens=8192,dtype=bf16,quant=" + std::string(q)));
  expect_pass(run(*k, "legacy", kGemma + ",tokens=100,dtype=bf16,quant=q5_1"));
}

// by_expert (docs/KERNELS.md, "Ours: by_expert"): the oracle (split reference bit for bit, CPU
// reference) at the decode shapes and at its own boundaries: one token (8 slots of 128 experts),
// both sides of the one-block pre-pass,
// a last row tile of one row (and tiles whose warps have 1-3 rows past the last), every pair on
// one expert (many batches of 8), rows longer than one shared-memory chunk, 4096 experts (4096
// slots), the down projection, bf16.
TEST_F(GgufGpu, ByExpertMoeVecPassesAtDecodeShapesAndItsBoundaries) {
  const auto k = make_moe_vec_kernel();
  // 2048 and 2049 tokens: 16384 pairs, the last of the one-block pre-pass, and the first of the
  // three-launch one; 8192: 16 slices of each expert's pairs along z.
  for (const char* tokens : {"1", "8", "64", "2048", "2049", "8192"})
    expect_pass(run(*k, "by_expert", kGemma + ",quant=q4_0,tokens=" + std::string(tokens)));
  for (QuantType t : weight_quant_types()) {
    SCOPED_TRACE(std::string(to_string(t)));
    expect_pass(run(*k, "by_expert", kGemma + ",tokens=16,quant=" + std::string(to_string(t))));
  }
  expect_pass(run(*k, "by_expert", "rows=1409,cols=2816,experts=128,top_k=8,tokens=8,quant=q4_0"));
  for (const char* rows : {"1", "3", "6", "18"})  // warps with 3, 1, 2 and (last tile) 2 real rows
    expect_pass(run(*k, "by_expert", "rows=" + std::string(rows) + ",cols=2816,experts=8,top_k=2,tokens=9,quant=q4_0"));
  expect_pass(run(*k, "by_expert", "rows=64,cols=2816,experts=1,top_k=1,tokens=1003,quant=q4_K"));
  expect_pass(run(*k, "by_expert", "rows=64,cols=16384,experts=8,top_k=2,tokens=37,quant=q8_0"));    // 17408-byte rows
  expect_pass(run(*k, "by_expert", "rows=64,cols=8192,experts=8,top_k=2,tokens=37,quant=q6_K"));     // 6720-byte rows
  expect_pass(run(*k, "by_expert", "rows=64,cols=4096,experts=4096,top_k=8,tokens=8192,quant=q4_0"));
  expect_pass(run(*k, "by_expert", "proj=down,tokens=64,top_k=8,experts=128,rows=2816,cols=704,quant=q4_0"));
  expect_pass(run(*k, "by_expert", kGemma + ",tokens=64,dtype=bf16,quant=q5_1"));
}

// dst of `variant`'s production call over `bufs` (dst poisoned before it, so an element the call
// leaves unwritten shows).
std::vector<std::uint8_t> dst_after(const Kernel& k, const Params& p, const std::string& variant, const GuardedBuffers& bufs,
                                    const DeviceLimits& limits, CUstream stream) {
  bufs.poison_outputs();
  device::Launcher launcher;
  const auto bound = k.bind(p, variant);  // alive until the read below: by_expert's scratch is its
  bound->launch(limits, bufs, launcher, stream);
  const std::size_t dst = bufs.index_of("dst");
  std::vector<std::uint8_t> out(bufs.bytes(dst));
  bufs.read(dst, 0, out.data(), out.size());
  return out;
}

// The same inputs through fixed and by_expert: every byte of dst equal (the design's claim: each
// element is the same warp sum in the same order, whatever the grouping).
TEST_F(GgufGpu, ByExpertDstEqualsFixedBitForBit) {
  const auto k = make_moe_vec_kernel();
  device::Stream stream;
  for (const std::string& o :
       {kGemma + ",tokens=8,quant=q4_0", kGemma + ",tokens=64,quant=q4_K", kGemma + ",tokens=300,quant=iq4_xs",
        std::string("rows=3072,cols=4096,experts=128,top_k=8,tokens=32,quant=q4_0"),
        std::string("rows=3072,cols=4096,experts=128,top_k=8,tokens=64,quant=q4_0"),  // Qwen3 gate/up, 2 chunks a row
        std::string("rows=1409,cols=2816,experts=4,top_k=2,tokens=15,quant=q4_0"),  // 7-8 pairs an expert, last tile 1 row
        std::string("rows=19,cols=2816,experts=2,top_k=1,tokens=17,quant=q6_K"),  // about 8 pairs an expert (one batch or two)
        std::string("proj=down,rows=4096,cols=1536,experts=128,top_k=8,tokens=16,quant=q4_0"),
        std::string("rows=256,cols=2816,experts=8,top_k=2,tokens=20000,quant=q4_0"),  // 3 pre-pass launches, 10 slices
        std::string("rows=64,cols=16384,experts=8,top_k=2,tokens=37,quant=q8_0,dtype=bf16")}) {
    SCOPED_TRACE(o);
    Params p = Params::defaults(k->axes());
    const Params extra = Params::parse(o);
    for (const auto& [name, value] : extra.values()) p.set(name, value);
    ASSERT_FALSE(k->check(p).has_value());
    const auto fixed = k->bind(p, "fixed");
    const GuardedBuffers bufs(fixed->buffers());
    fixed->fill_inputs(7, bufs, stream.get());
    stream.synchronize();
    const std::vector<std::uint8_t> want = dst_after(*k, p, "fixed", bufs, limits_, stream.get());
    const std::vector<std::uint8_t> got = dst_after(*k, p, "by_expert", bufs, limits_, stream.get());
    ASSERT_EQ(got.size(), want.size());
    std::uint64_t differing = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differing += got[i] != want[i];
    EXPECT_EQ(differing, 0u);
    EXPECT_TRUE(bufs.guard_violations().empty());
  }
}

// Down projection: top_k 1 over tokens*top_k = 65536 activation rows (gemma-4 down: 2816 x 704).
TEST_F(GgufGpu, DownProjectionOver65536ActivationRows) {
  const auto k = make_moe_vec_kernel();
  const std::string down = "proj=down,tokens=8192,top_k=8,experts=128,rows=2816,cols=704";
  for (const char* q : {"q4_0", "q8_0", "iq4_nl"}) expect_pass(run(*k, "fixed", down + ",quant=" + std::string(q)));
  // The 256-value types need cols a multiple of 256: 768 instead of gemma-4's 704.
  if (kHasCodebookTypes) {
    for (const char* q : {"iq1_s", "iq2_xs"})
      expect_pass(run(*k, "fixed", "proj=down,tokens=8192,top_k=8,experts=128,rows=2816,cols=768,quant=" + std::string(q)));
  }
  const CaseResult bad = run(*k, "legacy", down + ",quant=q4_0");
  EXPECT_EQ(bad.prediction.outcome, "refuse:grid.z");
  EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u);
  expect_pass(run(*k, "legacy", "proj=down,tokens=8191,top_k=8,experts=128,rows=2816,cols=704,quant=q4_0"));
}

TEST_F(GgufGpu, QuantizeLegacyRefusedAt65536RowsAndFixedEqualsSplit) {
  const auto k = make_quantize_q8_1_kernel();
  const CaseResult bad = run(*k, "legacy", "rows=65536,cols=2816");
  EXPECT_EQ(bad.prediction.outcome, "refuse:grid.y");
  EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
  expect_pass(run(*k, "legacy", "rows=65535,cols=2816"));
  expect_pass(run(*k, "fixed", "rows=65536,cols=2816"));
  expect_pass(run(*k, "fixed", "rows=200000,cols=704"));
}

TEST_F(GgufGpu, MmvqLegacyRefusedAt65536VectorsAndFixedPasses) {
  const auto k = make_mmvq_kernel();
  const CaseResult bad = run(*k, "legacy", "nvecs=65536,rows=1408,cols=2816");
  EXPECT_EQ(bad.prediction.outcome, "refuse:grid.y");
  EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
  std::vector<std::string> types = {"q4_0", "q4_K", "q6_K"};
  if (kHasCodebookTypes) types.insert(types.end(), {"iq2_xxs", "iq2_s", "iq3_xxs"});
  for (const std::string& q : types) expect_pass(run(*k, "fixed", "nvecs=65536,rows=1408,cols=2816,quant=" + q));
  expect_pass(run(*k, "legacy", "nvecs=65535,rows=1408,cols=2816,quant=q8_0"));
}

}  // namespace
}  // namespace gridfuzz::gguf
