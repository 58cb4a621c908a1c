// On a real GPU, through gridfuzz::run_case: vLLM's kernels in the 16-bit activation/output dtypes
// upstream dispatches (VLLM_DISPATCH_FLOATING_TYPES, gguf_kernel.cu:116/:306/:408): f16 and bf16
// for a few weight types at a small shape, both variants, each bit-exact against the split
// reference and within the stated tolerance of the float64 CPU reference (which reads the
// activations as rounded to the dtype and adds the output rounding, scalar_call_parts.hpp); and
// moe_vec's grid.z refusal at 8192 tokens x top_k 8, which does not depend on the dtype. Each case
// prints one line for docs/upstream/vllm-gguf.md.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::vllm {
namespace {

class VllmDtypeGpu : public testing::KernelGpuTest {
 protected:
  VllmDtypeGpu() : KernelGpuTest("vLLM's kernels") {}

  static void expect_pass(const CaseResult& r) { KernelGpuTest::expect_pass(r, 64); }
};

const char* const kDtypes[] = {"f16", "bf16"};
const char* const kTypes[] = {"q4_0", "q4_K", "q8_0", "iq4_xs"};
const char* const kVariants[] = {"upstream", "chunked"};

TEST_F(VllmDtypeGpu, MoeVecAndMmvqPassInEach16BitDtypeAtASmallShape) {
  const auto moe_vec = make_moe_vec_kernel();
  const auto mmvq = make_mmvq_kernel();
  for (const char* dtype : kDtypes)
    for (const char* quant : kTypes)
      for (const char* variant : kVariants) {
        const std::string common = std::string("rows=1408,cols=2816,quant=") + quant + ",dtype=" + dtype;
        SCOPED_TRACE(common + " " + variant);
        expect_pass(run(*moe_vec, variant, common + ",experts=128,top_k=8,tokens=7"));
        expect_pass(run(*moe_vec, variant, common + ",experts=128,top_k=8,tokens=5,proj=down"));
        expect_pass(run(*mmvq, variant, common + ",nvecs=8"));
      }
}

TEST_F(VllmDtypeGpu, MoeMmqPassesInEach16BitDtypeAtAPrefillShape) {
  const auto mmq = make_moe_mmq_kernel();
  // iq4_xs has no MMQ kernel upstream (ggml_moe_a8's switch, gguf_kernel.cu:306-392): not offered.
  for (const char* dtype : kDtypes)
    for (const char* quant : {"q4_0", "q4_K", "q8_0"})
      for (const char* variant : kVariants) {
        const std::string shape =
            std::string("rows=1408,cols=2816,experts=128,top_k=8,tokens=256,quant=") + quant + ",dtype=" + dtype;
        SCOPED_TRACE(shape + " " + variant);
        expect_pass(run(*mmq, variant, shape));
      }
}

TEST_F(VllmDtypeGpu, QuantizeQ8_1PassesInEach16BitDtype) {
  const auto quantize = make_quantize_q8_1_kernel();
  for (const char* dtype : kDtypes)
    for (const char* variant : kVariants)
      for (const char* shape : {"rows=64,cols=2816", "rows=3,cols=1000"}) {
        SCOPED_TRACE(std::string(shape) + " " + dtype + " " + variant);
        expect_pass(run(*quantize, variant, std::string(shape) + ",dtype=" + dtype));
      }
}

TEST_F(VllmDtypeGpu, MoeVecUpstreamRefusedAt8192PassesAt8191ChunkedPassesAt8192In16Bit) {
  const auto moe_vec = make_moe_vec_kernel();
  for (const char* dtype : kDtypes) {
    const std::string shape = std::string("rows=1408,cols=2816,experts=128,top_k=8,quant=q4_K,dtype=") + dtype;
    SCOPED_TRACE(shape);
    const CaseResult bad = run(*moe_vec, "upstream", shape + ",tokens=8192");
    EXPECT_EQ(bad.prediction.outcome, "refuse:grid.z");
    EXPECT_EQ(bad.observed.to_string().rfind("refuse:", 0), 0u) << bad.observed.to_string();
    EXPECT_EQ(bad.verdict.to_string(), "fail:refused");  // no ledger here: a known bug is still a failure
    expect_pass(run(*moe_vec, "upstream", shape + ",tokens=8191"));
    expect_pass(run(*moe_vec, "chunked", shape + ",tokens=8192"));
  }
}

}  // namespace
}  // namespace gridfuzz::vllm
