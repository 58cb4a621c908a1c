// llama.cpp's matmuls' CPU reference (the GGUF GEMV reference over the llama.cpp buffers) on
// host-memory buffers: the same samples on 1 thread and on several, for mmvq (fast-math
// quantizer bound) and mmq (serial dot, fp32 activation scale), and every read on the calling
// thread.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "gemv_inputs.hpp"
#include "gridfuzz/llamacpp/register.hpp"
#include "gridfuzz/registry.hpp"
#include "host_buffers.hpp"
#include "threads_check.hpp"

namespace gridfuzz::llamacpp {
namespace {

TEST(LlamacppCpuReference, SamplesDoNotDependOnTheThreadCount) {
  Registry registry;
  register_kernels(registry);
  for (const char* name : {"llamacpp.mmvq", "llamacpp.mmq"}) {
    const auto k = registry.find(name);
    ASSERT_TRUE(k) << name;
    for (const char* op : {"mul_mat_id", "mul_mat"}) {
      for (const char* quant : {"q4_0", "q4_K", "q8_0"}) {
        Params p = Params::defaults(k->axes());
        p.set("op", op);
        p.set("tokens", "3");
        p.set("top_k", "2");
        p.set("experts", "4");
        p.set("rows", "16");
        p.set("cols", "512");
        p.set("quant", quant);
        SCOPED_TRACE(std::string(name) + " " + p.to_string());
        ASSERT_EQ(k->check(p), std::nullopt);
        const auto c = k->bind(p, "upstream");
        testing::HostBuffers bufs(c->buffers());
        gguf::testing::fill_gemv_inputs(p, bufs, 20261201);
        testing::expect_same_samples_at_any_thread_count(*c, bufs, 99, 48);
      }
    }
  }
}

}  // namespace
}  // namespace gridfuzz::llamacpp
