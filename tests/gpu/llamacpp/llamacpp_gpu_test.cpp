// On a real GPU: llama.cpp's ggml_cuda_mul_mat_vec_q and ggml_cuda_mul_mat_q (llama-cpp-python
// 0.3.36, unmodified) run by gridfuzz::run_case on shapes of real MoE models; upstream's host
// assertions as death tests. Upstream's host code launches by itself; the CUPTI recorder sees
// every launch and the runner compares them with the plan, so a `pass` verdict means: plan ==
// recorded, split reference bit-exact (mmvq) or within its tolerance (mmq), every sampled output
// within the float64 CPU reference's bound. Each case prints one line for docs/upstream/llama-cpp.md.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "cuda/upstream_call.hpp"
#include "gridfuzz/crash_note.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launch_recorder.hpp"
#include "probe_kernels.cuh"
#include "gridfuzz/llamacpp/register.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/runner.hpp"

namespace gridfuzz::llamacpp {
namespace {

class LlamacppGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device: llama.cpp's kernels need one";
    if (auto why = device::LaunchRecorder::unavailable_reason()) GTEST_SKIP() << "no launch recorder: " << *why;
    ctx_ = std::make_unique<device::PrimaryContext>(0);
    limits_ = device::query_limits(0);
    register_kernels(registry_);
  }

  CaseResult run(const std::string& kernel, const std::string& overrides) {
    const auto k = registry_.find(kernel);
    Case c{k->name(), "upstream", Params::defaults(k->axes()), 20261130};
    const Params extra = Params::parse(overrides);
    for (const auto& [name, value] : extra.values()) c.params.set(name, value);
    RunOptions options;
    options.reference_samples = 256;
    const CaseResult r = run_case(*k, c, limits_, options, Ledger{});
    std::cout << "CASE " << c.replay() << " | predicted " << r.prediction.outcome << " | observed " << r.observed
              << " | verdict " << r.verdict << " | oracle " << r.oracle << " | " << r.detail << std::endl;
    return r;
  }

  static void expect_pass(const CaseResult& r) {
    EXPECT_EQ(r.verdict, "pass") << r.the_case.replay() << ": " << r.detail;
    EXPECT_EQ(r.observed, "accept");
    // mmvq's split reference is bit-exact, mmq's within its stated tolerance (compare_policy).
    EXPECT_TRUE(r.oracle.rfind("split:exact:0 unwritten:0 cpu:", 0) == 0 ||
                r.oracle.rfind("split:tol:0 unwritten:0 cpu:", 0) == 0)
        << r.oracle;
    const auto cpu = r.oracle.substr(r.oracle.find("cpu:") + 4);
    const auto slash = cpu.find('/');
    ASSERT_NE(slash, std::string::npos);
    EXPECT_EQ(cpu.substr(0, slash), cpu.substr(slash + 1)) << "CPU reference samples failed: " << r.oracle;
  }

  Registry registry_;
  std::unique_ptr<device::PrimaryContext> ctx_;
  DeviceLimits limits_;
};

// DeepSeek-V3 (hidden 7168, moe_intermediate_size 2048, 256 routed experts, 8 per token), both
// projections, every covered type, 1 token (mul_mat_vec_q) and 5 and 8 tokens (mul_mat_vec_q_moe).
TEST_F(LlamacppGpu, MmvqDeepSeekShapesPassWithPlanEqualToRecorded) {
  for (const char* quant : {"q4_0", "q8_0", "q4_K", "q6_K", "iq4_xs"})
    for (const char* tokens : {"1", "5", "8"}) {
      expect_pass(run("llamacpp.mmvq", std::string("op=mul_mat_id,experts=256,top_k=8,rows=2048,cols=7168,proj=gate_up,"
                                                   "tokens=") + tokens + ",quant=" + quant));
      expect_pass(run("llamacpp.mmvq", std::string("op=mul_mat_id,experts=256,top_k=8,rows=7168,cols=2048,proj=down,"
                                                   "tokens=") + tokens + ",quant=" + quant));
    }
}

// Dense MUL_MAT (gpt-oss-120b hidden 2880 is not a multiple of 256: q4_0/q8_0 only), small-k.
TEST_F(LlamacppGpu, MmvqDenseAndSmallKPass) {
  for (const char* n : {"1", "3", "8"}) {
    expect_pass(run("llamacpp.mmvq", std::string("op=mul_mat,rows=2880,cols=2880,quant=q8_0,tokens=") + n));
    expect_pass(run("llamacpp.mmvq", std::string("op=mul_mat,rows=4096,cols=14336,quant=q4_K,tokens=") + n));
  }
  expect_pass(run("llamacpp.mmvq", "op=mul_mat_id,experts=128,top_k=4,rows=2880,cols=1024,tokens=1,quant=q4_0"));
}

// The recorder sees a launch the driver refuses as the driver answered it: the same geometry and
// error as gridfuzz's own launcher records. CUPTI gives no kernel name for it (H200, driver
// 580.159.04): the name is empty or the kernel's.
TEST_F(LlamacppGpu, RecorderSeesARefusedLaunchWithTheDriversError) {
  const device::ProbeSymbol& trivial = device::probe_symbols().front();
  const device::Function fn = device::Function::from_symbol(trivial.symbol, trivial.name);
  LaunchSpec spec;
  spec.name = trivial.name;
  spec.grid = {1, 70000, 1};  // past grid.y's 65535
  spec.block = {32, 1, 1};
  device::Launcher launcher;
  std::vector<device::LaunchRecord> seen;
  {
    device::LaunchRecorder recorder;
    void* null = nullptr;
    unsigned smem = 0;
    void* args[] = {&null, &null, &smem};
    launcher.launch(fn, spec, args, nullptr);
    seen = recorder.take();
  }
  ASSERT_EQ(launcher.records().size(), 1u);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(seen[0].ok());
  EXPECT_EQ(seen[0].error, launcher.records()[0].error);
  EXPECT_EQ(seen[0].spec.grid, spec.grid);
  EXPECT_EQ(seen[0].spec.block, spec.block);
  EXPECT_TRUE(seen[0].spec.name.empty() || seen[0].spec.name == trivial.name) << seen[0].spec.name;
}

// GGML_ASSERT in upstream's host code ends the process; its message is in the crash note.
TEST_F(LlamacppGpu, UpstreamAssertionEndsTheProcessWithItsMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        MatmulCall c;
        c.ggml_type = 2;
        c.cols = 256;
        c.rows = 64;
        c.experts = 4;
        c.with_ids = true;
        c.tokens = 9;  // > MMVQ_MAX_BATCH_SIZE: mmvq.cu:1441
        c.top_k = 2;
        c.src1_rows_per_token = 1;
        device::PrimaryContext ctx(0);
        call_upstream(Entry::mmvq, c, nullptr);
      },
      "llama.cpp abort: .*mmvq.cu:1441: GGML_ASSERT\\(!ids \\|\\| ne12 <= MMVQ_MAX_BATCH_SIZE\\) failed");
}

// Finding 1 of docs/upstream/llama-cpp.md: MUL_MAT_ID through MMQ with 58113 tokens ends the
// process in mm_ids_helper's shared-memory assertion (4 bytes per token > 227 KiB), before any
// launch.
TEST_F(LlamacppGpu, MmqWithIdsAbortsPast58112Tokens) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        MatmulCall c;
        c.ggml_type = 12;  // q4_K
        c.cols = 7168;
        c.rows = 2048;
        c.experts = 256;
        c.with_ids = true;
        c.tokens = 58113;
        c.top_k = 8;
        c.src1_rows_per_token = 1;
        device::PrimaryContext ctx(0);
        call_upstream(Entry::mmq, c, nullptr);
      },
      "llama.cpp abort: .*mmid.cu:147: GGML_ASSERT\\(nbytes_shared <= smpbo\\) failed");
}

// MMQ on DeepSeek-V3 and Qwen3 shapes at real batch sizes, both projections.
TEST_F(LlamacppGpu, MmqMoeShapesPassWithPlanEqualToRecorded) {
  for (const char* quant : {"q4_0", "q8_0", "q4_K", "q6_K", "iq4_xs"}) {
    expect_pass(run("llamacpp.mmq", std::string("op=mul_mat_id,experts=256,top_k=8,rows=2048,cols=7168,proj=gate_up,"
                                                "tokens=512,quant=") + quant));
    expect_pass(run("llamacpp.mmq", std::string("op=mul_mat_id,experts=128,top_k=8,rows=4096,cols=1536,proj=down,"
                                                "tokens=300,quant=") + quant));
  }
  expect_pass(run("llamacpp.mmq", "op=mul_mat,rows=4096,cols=4096,tokens=64,quant=q6_K"));
  expect_pass(run("llamacpp.mmq", "op=mul_mat_id,experts=128,top_k=4,rows=2880,cols=2880,tokens=1000,quant=q8_0"));
}

}  // namespace
}  // namespace gridfuzz::llamacpp
