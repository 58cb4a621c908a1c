// On a real GPU, through gridfuzz::run_case: vLLM's own moe_vec (vllm-gguf-plugin 0.0.5,
// unmodified) is refused by the driver at 8192 tokens x top_k 8 as upstream launches it, for every
// weight type, and passes at 8191; the chunked host fix runs the same kernels at 8192 bit-exact
// against the split reference, and every sampled output agrees with gridfuzz's float64 CPU
// reference (our GGUF formats checking upstream's kernels). Each case prints one line for
// docs/upstream/vllm-gguf.md.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "cuda/upstream_kernels.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::vllm {
namespace {

class VllmGpu : public testing::KernelGpuTest {
 protected:
  VllmGpu() : KernelGpuTest("vLLM's kernels") {}

  CaseResult run(const std::string& variant, const std::string& overrides, bool dense = false) const {
    const auto k = dense ? make_mmvq_kernel() : make_moe_vec_kernel();
    return KernelGpuTest::run(*k, variant, overrides);
  }
};

const std::string kGemma = "rows=1408,cols=2816,experts=128,top_k=8";

TEST_F(VllmGpu, UpstreamRefusedAt8192PassesAt8191ChunkedPassesAt8192ForEveryType) {
  for (gguf::QuantType t : moe_vec_quant_types()) {
    const std::string q = ",quant=" + std::string(gguf::to_string(t));
    SCOPED_TRACE(q);
    const CaseResult bad = run("upstream", kGemma + ",tokens=8192" + q);
    EXPECT_EQ(bad.prediction.outcome, "refuse:grid.z");
    EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
    EXPECT_EQ(bad.verdict.to_string(), "fail:refused");  // no ledger here: a known bug is still a failure
    expect_pass(run("upstream", kGemma + ",tokens=8191" + q));
    expect_pass(run("chunked", kGemma + ",tokens=8192" + q));
  }
}

TEST_F(VllmGpu, DownProjectionAndDecodeSizesPass) {
  for (const char* shape : {"tokens=1", "tokens=7", "tokens=1024,proj=down", "tokens=8191,proj=down,quant=q4_K"}) {
    SCOPED_TRACE(shape);
    expect_pass(run("upstream", kGemma + "," + shape));
    expect_pass(run("chunked", kGemma + "," + shape));
  }
}

TEST_F(VllmGpu, MmvqRefusedAt65536VectorsChunkedPassesForEveryType) {
  for (gguf::QuantType t : moe_vec_quant_types()) {
    const std::string q = "rows=1408,cols=2816,quant=" + std::string(gguf::to_string(t));
    SCOPED_TRACE(q);
    const CaseResult bad = run("upstream", q + ",nvecs=65536", true);
    EXPECT_EQ(bad.prediction.outcome, "refuse:grid.y");
    EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
    expect_pass(run("upstream", q + ",nvecs=65535", true));
    expect_pass(run("chunked", q + ",nvecs=65536", true));
  }
}

}  // namespace
}  // namespace gridfuzz::vllm
