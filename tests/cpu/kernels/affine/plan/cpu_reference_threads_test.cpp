// The affine family's CPU reference (AffineMatmulCase::cpu_reference, which affine.* and mlx.*
// sample) on host-memory buffers: the samples are the same on 1 thread and on several (the same
// elements, expected values and tolerances, in the same order), and every buffer read happens on
// the calling thread.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "affine_matmul_kernel.hpp"
#include "host_buffers.hpp"
#include "matmul_inputs.hpp"
#include "plan_test_support.hpp"
#include "same_samples.hpp"

namespace gridfuzz::affine::test {
namespace {

using gridfuzz::testing::HostBuffers;
using gridfuzz::testing::same_samples;

void expect_same_at(const Kernel& k, Params p, std::size_t count, std::size_t threads) {
  SCOPED_TRACE(k.name() + " " + p.to_string() + ", " + std::to_string(count) + " samples, " +
               std::to_string(threads) + " threads");
  if (auto problem = k.check(p)) FAIL() << *problem;
  const auto bound = k.bind(p, "fixed");
  const auto& c = dynamic_cast<const AffineMatmulCase&>(*bound);
  HostBuffers bufs(c.buffers());
  fill_matmul_inputs(dynamic_cast<const AffineMatmulKernel&>(k).shape(p), bufs, 20261201);
  const std::vector<ReferenceSample> serial = c.cpu_reference(bufs, 7, count, 1);
  const std::vector<ReferenceSample> parallel = c.cpu_reference(bufs, 7, count, threads);
  ASSERT_EQ(serial.size(), count);
  EXPECT_TRUE(same_samples(serial, parallel));
  const std::set<std::thread::id> readers = bufs.reader_threads();
  if (count == 0) {
    EXPECT_TRUE(readers.empty());
  } else {
    EXPECT_EQ(readers, std::set<std::thread::id>{std::this_thread::get_id()});
  }
}

Params with(Params p, const std::string& bits, const std::string& group_size, const std::string& dtype) {
  p.set("bits", bits);
  p.set("group_size", group_size);
  p.set("dtype", dtype);
  return p;
}

TEST(AffineReferenceThreads, SamplesDoNotDependOnTheThreadCount) {
  // qmm (8 output rows or more) and qmv (fewer) cases of both calls, every bits/group/dtype.
  for (const char* bits : {"4", "8"}) {
    for (const char* group : {"32", "64", "128"}) {
      for (const char* dtype : {"bf16", "f16"}) {
        expect_same_at(dense_kernel(), with(dense_params(9, 256, 512), bits, group, dtype), 48, 4);
        expect_same_at(dense_kernel(), with(dense_params(3, 256, 512), bits, group, dtype), 48, 3);
        expect_same_at(gather_kernel(), with(gather_params(5, 2, 4, 256, 512), bits, group, dtype), 48, 4);
        expect_same_at(gather_kernel(), with(gather_params(1, 2, 4, 128, 256), bits, group, dtype), 48, 2);
      }
    }
  }
}

TEST(AffineReferenceThreads, EveryCountAndMoreThreadsThanSamples) {
  for (std::size_t count : {0, 1, 2, 5, 64}) {
    for (std::size_t threads : {2, 16}) {
      expect_same_at(gather_kernel(), gather_params(3, 2, 4, 128, 256), count, threads);
    }
  }
}

}  // namespace
}  // namespace gridfuzz::affine::test
