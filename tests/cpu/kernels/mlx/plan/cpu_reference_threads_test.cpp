// mlx.qmm and mlx.gather_qmm's CPU reference (the affine family's, with MLX's rounding of 8-bit
// qmv weights in the tolerance) on host-memory buffers: the same samples on 1 thread and on
// several, and every read on the calling thread.
#include <gtest/gtest.h>

#include <string>

#include "host_buffers.hpp"
#include "matmul_inputs.hpp"
#include "mlx_test_support.hpp"
#include "threads_check.hpp"

namespace gridfuzz::mlx::test {
namespace {

TEST(MlxCpuReference, SamplesDoNotDependOnTheThreadCount) {
  for (const char* bits : {"4", "8"}) {
    // qmm (8 output rows or more) and qmv (fewer) of both calls; group 64 (every kernel built).
    for (Params p : {dense_params(9, 256, 512), dense_params(2, 256, 512), gather_params(5, 2, 4, 256, 512),
                     gather_params(1, 2, 4, 128, 256)}) {
      p.set("bits", bits);
      p.set("group_size", "64");
      const Kernel& k = p.values().count("vocab") ? dense_kernel() : gather_kernel();
      SCOPED_TRACE(k.name() + " " + p.to_string());
      ASSERT_EQ(k.check(p), std::nullopt);
      const auto c = k.bind(p, "upstream");
      gridfuzz::testing::HostBuffers bufs(c->buffers());
      affine::test::fill_matmul_inputs(shape_of(k, p), bufs, 20261201);
      gridfuzz::testing::expect_same_samples_at_any_thread_count(*c, bufs, 7, 48);
    }
  }
}

}  // namespace
}  // namespace gridfuzz::mlx::test
