// The affine family's CPU reference (AffineMatmulCase::cpu_reference, which affine.* and mlx.*
// sample) on host-memory buffers: the samples are the same on 1 thread and on several (the same
// elements, expected values and tolerances, in the same order), every buffer read happens on the
// calling thread, and each expected value is the library's reference_dot.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/formats.hpp"
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

// The one pass over K of each sample gives reference_dot's value bit for bit (the library's
// float64 dot of the same weight row and activation row, read back from the buffers here), and
// an absolute tolerance at least fp32's accumulation bound over reference_abs_dot's sum.
TEST(AffineReferenceThreads, ExpectedIsReferenceDotBitForBit) {
  for (const char* bits : {"4", "8"}) {
    for (const char* dtype : {"bf16", "f16"}) {
      for (const bool gather : {false, true}) {
        const Kernel& k = gather ? gather_kernel() : dense_kernel();
        const Params p = with(gather ? gather_params(5, 2, 4, 256, 512) : dense_params(9, 256, 512), bits, "64", dtype);
        SCOPED_TRACE(k.name() + " " + p.to_string());
        const MatmulShape s = dynamic_cast<const AffineMatmulKernel&>(k).shape(p);
        const auto bound = k.bind(p, "fixed");
        HostBuffers bufs(bound->buffers());
        fill_matmul_inputs(s, bufs, 5);
        const auto u32 = [&](const char* name, std::uint64_t i) {
          std::uint32_t v = 0;
          bufs.read(bufs.index_of(name), i * 4, &v, 4);
          return v;
        };
        for (const ReferenceSample& r : bound->cpu_reference(bufs, 3, 32)) {
          const std::uint64_t flat_row = r.element / s.n, col = r.element % s.n;  // m = 1 when gathering
          const std::uint64_t x_row = gather ? u32("lhs_indices", flat_row) : flat_row;
          const std::uint64_t w_row = (gather ? u32("rhs_indices", flat_row) : 0) * s.n + col;
          QuantizedMatrix w;
          w.params = {s.bits, s.group_size};
          w.scale_dtype = s.dtype;
          w.rows = 1;
          w.cols = s.k;
          w.words.resize(s.words_per_row());
          w.scales.resize(s.groups_per_row());
          w.biases.resize(s.groups_per_row());
          bufs.read(bufs.index_of("w"), w_row * s.words_per_row() * 4, w.words.data(), w.words.size() * 4);
          bufs.read(bufs.index_of("scales"), w_row * s.groups_per_row() * 2, w.scales.data(), w.scales.size() * 2);
          bufs.read(bufs.index_of("biases"), w_row * s.groups_per_row() * 2, w.biases.data(), w.biases.size() * 2);
          std::vector<std::uint16_t> x(s.k);
          bufs.read(bufs.index_of("x"), x_row * s.k * 2, x.data(), x.size() * 2);
          const ActivationView xv = ActivationView::bits16(x, s.dtype, 1, s.k);
          EXPECT_TRUE(gridfuzz::testing::same_bits(r.expected, reference_dot(w, 0, xv, 0))) << "element " << r.element;
          EXPECT_GE(r.abs_tol, static_cast<double>(s.k) * 0x1p-24 * reference_abs_dot(w, 0, xv, 0));
        }
      }
    }
  }
}

}  // namespace
}  // namespace gridfuzz::affine::test
