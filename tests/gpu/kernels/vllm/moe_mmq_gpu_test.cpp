// On a real GPU: vLLM's MoE MMQ path (moe.cuh, unmodified) for every type it has, at a prefill
// shape; refused where the aligned routing passes 65535 blocks on grid.y, the chunked fix passing
// there; and the two bugs the model and the oracle point at: the int expert byte offset (a
// DeepSeek-V3-sized weight bank) and the expert ids above 255 the kernel skips (a 384-expert bank).
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "cuda/upstream_kernels.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::vllm {
namespace {

class VllmMmqGpu : public testing::KernelGpuTest {
 protected:
  VllmMmqGpu() : KernelGpuTest("vLLM's kernels") {}

  // Its own CASE line (with the prediction's index wraps) and pass check (no sample count).
  CaseResult run(const std::string& variant, const std::string& overrides) {
    const auto k = make_moe_mmq_kernel();
    Case c{k->name(), variant, Params::defaults(k->axes()), 20261130};
    const Params extra = Params::parse(overrides);
    for (const auto& [name, value] : extra.values()) c.params.set(name, value);
    RunOptions options;
    options.reference_samples = 256;
    const CaseResult r = run_case(*k, c, limits_, options, Ledger{});
    std::cout << "CASE " << c.replay() << " | predicted " << r.prediction.outcome << " " << r.prediction.index_wrap()
              << " | observed " << r.observed.to_string() << " | verdict " << r.verdict.to_string() << " | oracle " << r.oracle.to_string() << " | "
              << r.detail << std::endl;
    return r;
  }

  static void expect_pass(const CaseResult& r) {
    EXPECT_EQ(r.verdict.to_string(), "pass") << r.the_case.replay() << ": " << r.detail;
    EXPECT_EQ(r.oracle.to_string().rfind("split:exact:0 unwritten:0 cpu:", 0), 0u) << r.oracle.to_string();
    const auto cpu = r.oracle.to_string().substr(r.oracle.to_string().find("cpu:") + 4);
    const auto slash = cpu.find('/');
    ASSERT_NE(slash, std::string::npos);
    EXPECT_EQ(cpu.substr(0, slash), cpu.substr(slash + 1)) << "CPU reference samples failed: " << r.oracle.to_string();
  }
};

const std::string kGemma = "rows=1408,cols=2816,experts=128,top_k=8";

TEST_F(VllmMmqGpu, EveryTypePassesAtAPrefillShape) {
  for (gguf::QuantType t : moe_mmq_quant_types()) {
    const std::string q = ",quant=" + std::string(gguf::to_string(t));
    SCOPED_TRACE(q);
    expect_pass(run("upstream", kGemma + ",tokens=256" + q));
    expect_pass(run("upstream", kGemma + ",tokens=100,proj=down" + q));
  }
}

TEST_F(VllmMmqGpu, RefusedFrom32720TokensAtTopK8ChunkedPasses) {
  const CaseResult bad = run("upstream", kGemma + ",tokens=32720");
  EXPECT_EQ(bad.prediction.outcome, "refuse:grid.y");
  EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
  expect_pass(run("upstream", kGemma + ",tokens=32719"));
  expect_pass(run("chunked", kGemma + ",tokens=32720"));
}

// moe.cuh:33 returns for exp_idx > 255: with 384 experts (Kimi-K2), the pairs routed to experts
// 256..383 are never written. The model cannot see it; the oracle must.
TEST_F(VllmMmqGpu, ExpertsAbove255AreSkipped) {
  const CaseResult r = run("upstream", "rows=64,cols=256,top_k=8,tokens=256,experts=384");
  EXPECT_EQ(r.prediction.outcome, "accept");
  EXPECT_EQ(r.observed.to_string(), "accept");
  EXPECT_EQ(r.verdict.to_string(), "fail:unwritten") << r.oracle.to_string();
  expect_pass(run("upstream", "rows=64,cols=256,top_k=8,tokens=256,experts=256"));
}

// Last in this file: the fault it provokes leaves this process's CUDA context unusable (a sticky
// error), and GoogleTest runs the tests in the order they are written.
// moe.cuh:36 (char*)vx + exp_idx * exp_stride in int: DeepSeek-V3's gate/up bank (4096 x 7168,
// q4_0: 16515072 bytes an expert) passes 2^31 from expert 131 on.
TEST_F(VllmMmqGpu, ExpertByteOffsetWrapsFromExpert131OfADeepSeekSizedBank) {
  const std::string deepseek = "rows=4096,cols=7168,top_k=8,tokens=256";
  expect_pass(run("upstream", deepseek + ",experts=131"));
  const CaseResult bad = run("upstream", deepseek + ",experts=256");
  EXPECT_EQ(bad.prediction.index_wrap(), "wrap:expert_byte_offset");
  EXPECT_EQ(bad.verdict.to_string().rfind("fail:", 0), 0u) << bad.verdict.to_string() << " " << bad.oracle.to_string();
}

}  // namespace
}  // namespace gridfuzz::vllm
