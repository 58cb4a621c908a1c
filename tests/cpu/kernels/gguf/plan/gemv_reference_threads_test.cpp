// The GGUF GEMV call's CPU reference (gemv_call_cpu_reference, which gguf.*, llamacpp.* and
// vllm.* sample) on host-memory buffers: the samples are the same on 1 thread and on several (the
// same elements, expected values and tolerances, in the same order), whatever the weight type and
// the options, and every buffer read happens on the calling thread.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "call_shape.hpp"
#include "gemv_call_parts.hpp"
#include "gemv_inputs.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "host_buffers.hpp"
#include "plan_test_support.hpp"
#include "same_samples.hpp"

namespace gridfuzz::gguf::testing {
namespace {

using gridfuzz::testing::HostBuffers;
using gridfuzz::testing::same_samples;

struct Case {
  MoeCallShape shape;
  Params params;
};

// A small case of gguf.moe_vec or gguf.mmvq (cols 512: whole blocks of every type).
Case small_case(bool dense, QuantType quant, const std::string& extra = "") {
  const auto k = dense ? make_mmvq_kernel() : make_moe_vec_kernel();
  const std::string sizes = dense ? "nvecs=5,rows=8,cols=512" : "tokens=5,top_k=2,experts=3,rows=8,cols=512";
  Params p = params_for(*k, sizes + ",quant=" + std::string(to_string(quant)));
  if (!extra.empty()) {
    const Params overrides = Params::parse(extra);
    for (const auto& [name, value] : overrides.values()) p.set(name, value);  // over the sizes above
  }
  if (auto problem = k->check(p)) ADD_FAILURE() << *problem;
  return {dense ? mmvq_shape_from(p) : moe_shape_from(p), p};
}

// The samples at 1 thread and at `threads`, which must be the same; and the reads all on this thread.
void expect_same_at(const Case& c, GemvReferenceOptions options, std::size_t count, std::size_t threads) {
  HostBuffers bufs(gemv_call_buffers(c.shape));
  fill_gemv_inputs(c.params, bufs, 20261201);
  options.threads = 1;
  const std::vector<ReferenceSample> serial = gemv_call_cpu_reference(c.shape, bufs, 99, count, options);
  options.threads = threads;
  const std::vector<ReferenceSample> parallel = gemv_call_cpu_reference(c.shape, bufs, 99, count, options);
  ASSERT_EQ(serial.size(), count + (options.check_q8_1_words ? (count + 7) / 8 : 0));
  EXPECT_TRUE(same_samples(serial, parallel)) << threads << " threads";
  const std::set<std::thread::id> readers = bufs.reader_threads();
  if (count == 0) {
    EXPECT_TRUE(readers.empty());
  } else {
    EXPECT_EQ(readers, std::set<std::thread::id>{std::this_thread::get_id()});
  }
}

struct NamedOptions {
  const char* name;
  GemvReferenceOptions options;
};

// Each adapter's options (gemv_call_kernel.cpp, kernels/vllm and kernels/llamacpp adapters).
std::vector<NamedOptions> adapter_options() {
  return {
      {"gguf", {}},
      {"vllm gemv", {.fp16_scale_products = true}},
      {"vllm moe_mmq", {.fp16_scale_products = true, .serial_dot = true}},
      {"llamacpp mmq", {.serial_dot = true, .check_q8_1_words = false, .fp32_activation_scale = true}},
      {"llamacpp mmvq", {.check_q8_1_words = false, .fast_math_quantizer = true}},
  };
}

TEST(GemvReferenceThreads, SamplesDoNotDependOnTheThreadCount) {
  for (QuantType quant : weight_quant_types()) {
    for (bool dense : {false, true}) {
      const Case c = small_case(dense, quant);
      for (const NamedOptions& o : adapter_options()) {
        SCOPED_TRACE(std::string(to_string(quant)) + (dense ? " mmvq " : " moe_vec ") + o.name);
        expect_same_at(c, o.options, 40, 4);
      }
    }
  }
}

TEST(GemvReferenceThreads, SameForEveryShapeOption) {
  // The down projection (one activation row per pair), bf16 output, more threads than samples,
  // and sample counts around the q8_1 word checks.
  for (const std::string extra : {"proj=down", "dtype=bf16", "tokens=1,top_k=1,experts=1"}) {
    for (QuantType quant : {QuantType::q4_0, QuantType::q4_K, QuantType::q8_0}) {
      SCOPED_TRACE(extra + " " + std::string(to_string(quant)));
      const Case c = small_case(false, quant, extra);
      for (std::size_t count : {0, 1, 2, 9, 64}) {
        for (std::size_t threads : {2, 3, 16}) expect_same_at(c, {}, count, threads);
      }
    }
  }
}

TEST(GemvReferenceThreads, ABadExpertIdThrowsAtEveryThreadCount) {
  const Case c = small_case(false, QuantType::q4_0);
  HostBuffers bufs(gemv_call_buffers(c.shape));
  fill_gemv_inputs(c.params, bufs, 1);
  const int bad = 3;  // experts = 3
  std::memcpy(bufs.raw("expert_ids").data() + 4 * (c.shape.pairs() - 1), &bad, 4);  // sample 1 reads the last pair
  for (std::size_t threads : {1, 4}) {
    EXPECT_THROW(gemv_call_cpu_reference(c.shape, bufs, 5, 16, {.threads = threads}), std::runtime_error);
  }
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
