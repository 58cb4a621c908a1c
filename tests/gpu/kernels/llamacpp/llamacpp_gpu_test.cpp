// On a real GPU: llama.cpp's ggml_cuda_mul_mat_vec_q and ggml_cuda_mul_mat_q (llama-cpp-python
// 0.3.36, unmodified) run by gridfuzz::run_case on shapes of real MoE models; upstream's host
// assertions as death tests. Upstream's host code launches by itself; the CUPTI recorder sees
// every launch and the runner compares them with the plan, so a `pass` verdict means: plan ==
// recorded, split reference bit-exact (mmvq) or within its tolerance (mmq), every sampled output
// within the float64 CPU reference's bound. Each case prints one line for docs/upstream/llama-cpp.md.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "cuda/upstream_call.hpp"
#include "gridfuzz/crash_note.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/launch_recorder.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "random_fill.hpp"
#include "probe_kernels.cuh"
#include "gridfuzz/llamacpp/register.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::llamacpp {
namespace {

class LlamacppGpu : public testing::KernelGpuTest {
 protected:
  LlamacppGpu() : KernelGpuTest("llama.cpp's kernels") {}

  // The launch recorder (CUPTI) is asked for before the context is made, as before the shared
  // fixture.
  void SetUp() override {
    if (device::device_count() > 0)
      if (auto why = device::LaunchRecorder::unavailable_reason()) GTEST_SKIP() << "no launch recorder: " << *why;
    KernelGpuTest::SetUp();
    if (IsSkipped()) return;
    register_kernels(registry_);
  }

  CaseResult run(const std::string& kernel, const std::string& overrides, const std::string& variant = "upstream") const {
    return KernelGpuTest::run(*registry_.find(kernel), variant, overrides);
  }

  // mmvq's split reference is bit-exact, mmq's within its stated tolerance (compare_policy).
  static void expect_pass(const CaseResult& r) { KernelGpuTest::expect_pass(r, 0, Split::exact_or_tolerance); }

  Registry registry_;
};

// llama.cpp's quantize_q8_1 (built with -use_fast_math) against gridfuzz's CPU quantizer on the
// activations the cases get (seeds 1, 2, 3 and the tests' seed; 64 rows of 7168): every quant
// that differs is one step off at an element fast_division_q8_1_quant_ambiguous names, every
// scale that differs is one fast_division_q8_1_scale_ambiguous names, the block sums s agree bit
// for bit, and the dot of each row with q6_K weights moves by at most
// fast_division_q8_1_error_bound (docs/upstream/llama-cpp.md, Finding 6). The counts are printed.
TEST_F(LlamacppGpu, UpstreamQuantizerDiffersFromTheCpusOnlyWhereFastDivisionMay) {
  constexpr std::int64_t cols = 7168, rows = 64;
  constexpr std::uint64_t n = cols * rows, blocks = n / 32;
  const std::uint64_t row_bytes = gguf::quant_row_bytes(gguf::QuantType::q6_K, cols);
  const device::DeviceBuffer x(n * 4), q(blocks * sizeof(gguf::block_q8_1)), w(rows * row_bytes);
  std::vector<float> hx(n);
  std::vector<gguf::block_q8_1> hq(blocks), cpu(gguf::q8_1_blocks_per_row(cols));  // 7168: no padding
  std::vector<std::uint8_t> hw(rows * row_bytes);
  std::uint64_t q_diff = 0, q_unexplained = 0, d_diff = 0, d_unexplained = 0, s_diff = 0, ambiguous = 0;
  std::uint64_t rows_past_fp32 = 0, rows_past_bound = 0;
  double worst = 0;  // largest |dot(gpu q8_1) - dot(cpu q8_1)| / bound
  for (std::uint64_t seed : {1ull, 2ull, 3ull, 20261130ull}) {
    gguf::fill_activations(x.as<float>(), n, seed, nullptr);
    gguf::fill_weight_blocks(w.as<std::uint8_t>(), rows * cols / 256, gguf::QuantType::q6_K, seed, nullptr);
    quantize_q8_1_upstream(x.as<float>(), q.as<void>(), cols, rows, nullptr);
    x.download(hx.data(), n * 4);  // synchronous with the legacy stream both ran on
    q.download(hq.data(), q.bytes());
    w.download(hw.data(), hw.size());
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* xr = hx.data() + r * cols;
      const gguf::block_q8_1* gr = hq.data() + r * cols / 32;
      gguf::quantize_row_q8_1(xr, cols, cpu.data());
      for (std::int64_t b = 0; b < cols / 32; ++b) {
        float amax = 0.0f;
        for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(xr[b * 32 + j]));
        const float d = amax / 127.0f;
        if (gr[b].d != cpu[b].d) {
          ++d_diff;
          d_unexplained += !gguf::fast_division_q8_1_scale_ambiguous(d);
        }
        s_diff += gr[b].s != cpu[b].s;
        for (int j = 0; j < 32; ++j) {
          const bool amb = gguf::fast_division_q8_1_quant_ambiguous(xr[b * 32 + j], d);
          ambiguous += amb;
          if (gr[b].qs[j] == cpu[b].qs[j]) continue;
          ++q_diff;
          q_unexplained += !amb || std::abs(gr[b].qs[j] - cpu[b].qs[j]) != 1;
        }
      }
      const std::uint8_t* wr = hw.data() + r * row_bytes;
      const double diff = std::fabs(gguf::reference_dot(gguf::QuantType::q6_K, wr, gr, cols) -
                                    gguf::reference_dot(gguf::QuantType::q6_K, wr, cpu.data(), cols));
      const double bound = gguf::fast_division_q8_1_error_bound(gguf::QuantType::q6_K, wr, xr, cpu.data(), cols);
      rows_past_fp32 += diff > gguf::gpu_dot_tolerance_via_q8_1_sums(gguf::QuantType::q6_K, wr, cpu.data(), cols);
      rows_past_bound += diff > bound;
      if (bound > 0) worst = std::fmax(worst, diff / bound);
    }
  }
  std::cout << "UPSTREAM-Q8_1 " << 4 * blocks << " blocks, " << 4 * n << " values: quants differing " << q_diff
            << " (unexplained " << q_unexplained << ", ambiguous elements " << ambiguous << "), scales differing "
            << d_diff << " (unexplained " << d_unexplained << "), sums differing " << s_diff << "; q6_K rows whose dot "
            << "moved past the fp32 bound " << rows_past_fp32 << " of " << 4 * rows << ", past the fast-division bound "
            << rows_past_bound << ", largest diff/bound " << worst << std::endl;
  EXPECT_EQ(q_unexplained, 0u);
  EXPECT_EQ(d_unexplained, 0u);
  EXPECT_EQ(s_diff, 0u);
  EXPECT_EQ(rows_past_bound, 0u);
}

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

// Both allocation variants (docs/upstream/llama-cpp.md, "Allocation") where no over-read reaches
// memory that is not mapped: `upstream` (ggml's buffer padding, the VMM pool ggml picks on this
// device, fresh per call: its memory mapped, used and unmapped in every call) and `exact` pass
// alike, plan == recorded. 2880 columns are not a multiple of 512, so the weights carry ggml's
// zeroed row padding in `upstream`.
TEST_F(LlamacppGpu, BothAllocationVariantsPassWhereNoOverReadLeavesTheMapping) {
  for (const char* variant : {"upstream", "exact"}) {
    expect_pass(run("llamacpp.mmq", "op=mul_mat_id,experts=256,top_k=8,rows=2048,cols=7168,proj=gate_up,tokens=512,"
                                    "quant=q4_0", variant));
    expect_pass(run("llamacpp.mmq", "op=mul_mat_id,experts=128,top_k=4,rows=2880,cols=2880,tokens=1000,quant=q8_0",
                    variant));
    expect_pass(run("llamacpp.mmvq", "op=mul_mat_id,experts=256,top_k=8,rows=7168,cols=2048,proj=down,tokens=8,"
                                     "quant=q4_K", variant));
    expect_pass(run("llamacpp.mmvq", "op=mul_mat,rows=2880,cols=2880,tokens=3,quant=q8_0", variant));
  }
}

}  // namespace
}  // namespace gridfuzz::llamacpp
