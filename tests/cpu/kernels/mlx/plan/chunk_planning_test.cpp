// mlx.*: planning asks MLX's host function once per chunk size (dispatched_kernels, run_call
// without pointers), and answers exactly as issuing every chunk does: check() refuses the same
// shapes naming the same kernel, and the plan has the same launches and index ranges in the same
// order. Every chunk is issued by run_call with device pointers (run_chunked, as a launch does; the
// pointers are only passed on as kernel arguments, and the sink here launches nothing).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"

namespace gridfuzz::mlx {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::gather_kernel;
using test::gather_params;

// The call with every chunk issued, and how many host calls issued a launch.
MlxCall every_chunk(const affine::MatmulShape& s, Variant v, std::size_t* issued = nullptr) {
  const auto at = [](std::uint64_t tib) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(tib << 40)); };
  DevicePointers p;
  p.x = at(1);
  p.w = at(2);
  p.scales = at(3);
  p.biases = at(4);
  p.lhs = at(5);
  p.rhs = at(6);
  p.out = at(7);
  std::size_t count = 0;
  MlxCall call = run_call(s, v, test::sm90(), &p, [&count](const MlxLaunch&, void**) { ++count; });
  if (issued) *issued = count;
  return call;
}

// check() as it was: the affine family's constraints, then every launch of every chunk of both
// variants compiled; the first that is not named.
std::optional<std::string> check_every_chunk(const Kernel& k, const Params& p) {
  const auto& affine = dynamic_cast<const affine::AffineMatmulKernel&>(k);
  if (auto problem = affine.affine::AffineMatmulKernel::check(p)) return problem;
  for (Variant v : {Variant::upstream, Variant::chunked})
    for (const MlxLaunch& l : every_chunk(test::shape_of(k, p), v).launches)
      if (l.function == nullptr) return "MLX dispatches " + l.kernel + " for this call";
  return std::nullopt;
}

std::string describe(const MlxLaunch& l) {
  return describe(l.spec) + " function=" + std::to_string(reinterpret_cast<std::uintptr_t>(l.function)) +
         " kernel=" + l.kernel;
}
std::string describe(const IndexRange& r) {
  return r.name + "=" + to_string_u128(r.max_value) + " " + to_string(r.type) + " " + r.unit;
}
template <class T>
std::vector<std::string> described(const std::vector<T>& items) {
  std::vector<std::string> out;
  for (const T& item : items) out.push_back(describe(item));
  return out;
}

std::set<std::pair<const void*, std::string>> kernels_of(const std::vector<MlxLaunch>& launches) {
  std::set<std::pair<const void*, std::string>> out;
  for (const MlxLaunch& l : launches) out.emplace(l.function, l.kernel);
  return out;
}

// The plan (no pointers) against every chunk issued, and dispatched_kernels against the kernels of
// every chunk, in both variants.
void expect_same_as_every_chunk(const affine::MatmulShape& s, const std::string& what) {
  for (Variant v : {Variant::upstream, Variant::chunked}) {
    const std::string where = what + (v == Variant::upstream ? " upstream" : " chunked");
    std::size_t issued = 0;
    const MlxCall full = every_chunk(s, v, &issued);
    // Every launch came from MLX's host function on its own chunk (qmm_sm90's stand-in launch is
    // recorded without one: mlx_call.cpp, issue).
    if (full.path != Path::qmm_sm90) {
      EXPECT_EQ(issued, full.launches.size()) << where;
    }
    const MlxCall plan = run_call(s, v, test::sm90());
    EXPECT_EQ(plan.host_error, full.host_error) << where;
    if (!full.host_error) {
      EXPECT_EQ(plan.path, full.path) << where;
    }
    EXPECT_EQ(described(plan.launches), described(full.launches)) << where;
    EXPECT_EQ(described(plan.indices), described(full.indices)) << where;
    const std::vector<MlxLaunch> dispatched = dispatched_kernels(s, v, test::sm90());
    EXPECT_EQ(kernels_of(dispatched), kernels_of(full.launches)) << where;
    EXPECT_LE(dispatched.size(), 2u) << where;  // one chunk of each size
  }
}

struct Case {
  std::string what;
  Params params;
};

Params with(Params p, const std::string& axis, const std::string& value) {
  p.set(axis, value);
  return p;
}

// chunk_rows at vocab 128256, cols 4096: 16743; at vocab 128 or 1024: 65535 (max_grid_y).
std::vector<Case> dense_cases() {
  return {
      {"one chunk, qmv", dense_params(4, 128256)},
      {"one chunk, qmm_sm80", dense_params(5000, 128256)},
      {"exactly two chunks", dense_params(2 * 16743, 128256)},
      {"short last chunk, same tile", dense_params(40000, 128256)},
      {"last chunk of 20 rows: tile 32", dense_params(2 * 16743 + 20, 128256)},
      {"last chunk of 1 row: tile 16", dense_params(16743 + 1, 128256)},
      {"64 chunks and a last of 64 rows", dense_params(1 << 22, 128)},
      {"upstream div-by-zero, 65 chunks", dense_params(1 << 22, 1024)},
      {"cols 65536", dense_params(70000, 32768, 65536)},
      {"f16 8-bit chunked", with(with(dense_params(40000, 128256), "dtype", "f16"), "bits", "8")},
      {"group 32 bf16 chunked, last of 20", with(dense_params(2 * 16743 + 20, 128256), "group_size", "32")},
      {"uncompiled f16 group 128", with(with(dense_params(40000, 128256), "dtype", "f16"), "group_size", "128")},
      {"uncompiled 8-bit group 32", with(with(dense_params(16743 + 5, 128256), "bits", "8"), "group_size", "32")},
      // upstream: tokens*vocab wraps negative, B = 0, qmv (compiled); chunked: qmm_sm80 f16 g128 (not)
      {"uncompiled in chunked only",
       with(with(dense_params(16744, 128256), "dtype", "f16"), "group_size", "128")},
      {"qmm_sm90 (K <= group_size)", dense_params(40000, 128256, 64)},
  };
}

// chunk_pairs at rows 768: 65535 (max_grid_z); at rows 2^20: 2048.
std::vector<Case> gather_cases() {
  return {
      {"4 pairs: gather_qmv", gather_params(1, 4)},
      {"one chunk", gather_params(1000, 8)},
      {"two chunks and a rest", gather_params(20000, 8)},
      {"last chunk of 3 pairs", gather_params(65538, 1)},
      {"256 chunks and a rest", gather_params(1 << 20, 16)},
      {"wide rows: 39 chunks of 2048", gather_params(10000, 8, 128, 1 << 20)},
      {"f16 8-bit", with(with(gather_params(20000, 8), "dtype", "f16"), "bits", "8")},
      {"uncompiled f16 group 128", with(with(gather_params(20000, 8), "dtype", "f16"), "group_size", "128")},
      {"uncompiled 8-bit group 32", with(with(gather_params(9000, 8), "bits", "8"), "group_size", "32")},
  };
}

TEST(ChunkPlanning, CheckAnswersAsEveryChunkDoes) {
  std::size_t refused = 0;
  for (const auto& [k, cases] : {std::pair{&dense_kernel(), dense_cases()}, std::pair{&gather_kernel(), gather_cases()}})
    for (const Case& c : cases) {
      const std::optional<std::string> want = check_every_chunk(*k, c.params);
      const std::optional<std::string> got = k->check(c.params);
      ASSERT_EQ(got.has_value(), want.has_value()) << k->name() << " " << c.what << ": " << got.value_or("accepted");
      if (!want) continue;
      ++refused;
      EXPECT_EQ(got->rfind(*want, 0), 0u) << k->name() << " " << c.what << ": " << *got << " vs " << *want;
    }
  EXPECT_GE(refused, 6u);  // the uncompiled shapes of both kernels are among them
}

TEST(ChunkPlanning, PlanAndDispatchedKernelsAreEveryChunks) {
  for (const Case& c : dense_cases()) expect_same_as_every_chunk(test::shape_of(dense_kernel(), c.params), "mlx.qmm " + c.what);
  for (const Case& c : gather_cases())
    expect_same_as_every_chunk(test::shape_of(gather_kernel(), c.params), "mlx.gather_qmm " + c.what);
  // qmm_naive (N % 128 != 0, off the vocab axis; dispatch_outcomes_test.cpp): gemma-3 27B's head,
  // 4 chunks of 8190 rows and a last of 7240.
  affine::MatmulShape naive = test::shape_of(dense_kernel(), dense_params(40000, 4096, 5376));
  naive.n = 262208;
  expect_same_as_every_chunk(naive, "mlx.qmm qmm_naive");
}

TEST(ChunkPlanning, RefusesAShapeOnlyItsChunkedVariantCannotRun) {
  // tokens*vocab wraps MLX's int M*N negative: upstream's B is 0, so qmv (every group compiled);
  // the chunked call takes qmm_sm80, not compiled for f16 at group 128.
  const Params p = with(with(dense_params(16744, 128256), "dtype", "f16"), "group_size", "128");
  const affine::MatmulShape s = test::shape_of(dense_kernel(), p);
  for (const MlxLaunch& l : dispatched_kernels(s, Variant::upstream, test::sm90())) EXPECT_NE(l.function, nullptr);
  const std::vector<MlxLaunch> chunked = dispatched_kernels(s, Variant::chunked, test::sm90());
  ASSERT_FALSE(chunked.empty());
  EXPECT_EQ(chunked[0].function, nullptr);
  const auto why = dense_kernel().check(p);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find(chunked[0].kernel), std::string::npos) << *why;
}

TEST(ChunkPlanning, ShortLastChunkGetsAnotherKernel) {
  // The case dispatched_kernels exists for: the full chunks' kernel (tile 64) does not name the last
  // chunk's (tile 32), so one chunk of each size is needed, not only the first.
  const affine::MatmulShape s = test::shape_of(dense_kernel(), dense_params(2 * 16743 + 20, 128256));
  ASSERT_EQ(chunk_rows(s, test::sm90()), 16743u);
  const std::vector<MlxLaunch> dispatched = dispatched_kernels(s, Variant::chunked, test::sm90());
  ASSERT_EQ(dispatched.size(), 2u);
  EXPECT_NE(dispatched[0].kernel, dispatched[1].kernel);
  EXPECT_EQ(kernels_of(dispatched), kernels_of(every_chunk(s, Variant::chunked).launches));
}

}  // namespace
}  // namespace gridfuzz::mlx
