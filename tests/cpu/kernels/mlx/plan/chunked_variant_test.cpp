// mlx.*: the chunked variant (MLX's same host function over chunks) and the reference pieces.
#include <gtest/gtest.h>

#include <climits>

#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"

namespace gridfuzz::mlx {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::gather_kernel;
using test::gather_params;
using test::predict_of;

TEST(Chunked, DenseChunksKeepMTimesNInInt32AndCoverEveryRow) {
  for (std::uint64_t vocab : {128256u, 151936u, 262144u}) {
    for (std::uint64_t tokens : {100u, 16744u, 16384u, 100000u}) {
      const Params p = dense_params(tokens, vocab);
      const Prediction pred = predict_of(dense_kernel(), p, "chunked");
      EXPECT_EQ(pred.outcome, "accept") << tokens << "x" << vocab << " " << pred.detail;
      EXPECT_EQ(pred.index_wrap(), "safe") << tokens << "x" << vocab;
      const MlxCall call = run_call(test::shape_of(dense_kernel(), p), Variant::chunked, test::sm90());
      std::uint64_t rows = 0;
      for (const MlxLaunch& l : call.launches) {
        // qmm_sm80: grid.x = ceil(m / tile_m); the chunk's m is the largest multiple that fits.
        EXPECT_LE(l.spec.grid.z, 1u);
        rows += l.spec.grid.x;
      }
      EXPECT_GE(rows * 64, tokens);
      EXPECT_EQ(call.launches.size(),
                (tokens + chunk_rows(test::shape_of(dense_kernel(), p), test::sm90()) - 1) /
                    chunk_rows(test::shape_of(dense_kernel(), p), test::sm90()));
    }
  }
}

TEST(Chunked, GatherChunksStayWithinMaxGridZ) {
  const Params p = gather_params(20000, 8);
  const MlxCall call = run_call(test::shape_of(gather_kernel(), p), Variant::chunked, test::sm90());
  std::uint64_t pairs = 0;
  for (const MlxLaunch& l : call.launches) {
    EXPECT_LE(l.spec.grid.z, test::sm90().max_grid_z);
    pairs += l.spec.grid.z;
  }
  EXPECT_EQ(pairs, 160000u);
  EXPECT_EQ(predict_of(gather_kernel(), p, "chunked").outcome, "accept");
}

TEST(Reference, PiecesCoverEveryRowOnceAndNoneIsShorterThanATile) {
  for (std::uint64_t tokens : {1u, 7u, 63u, 8192u, 8200u, 16744u, 40000u}) {
    const affine::MatmulShape s = test::shape_of(dense_kernel(), dense_params(tokens, 262144));
    const auto pieces = reference_pieces(s, test::sm90());
    std::uint64_t next = 0;
    for (const SplitPiece& piece : pieces) {
      EXPECT_EQ(piece.begin, next);
      EXPECT_GT(piece.end, piece.begin);
      if (pieces.size() > 1) {
        EXPECT_GE(piece.end - piece.begin, 64u) << tokens;
      }
      EXPECT_LE((piece.end - piece.begin) * 262144, static_cast<std::uint64_t>(INT32_MAX));
      next = piece.end;
    }
    EXPECT_EQ(next, tokens);
    const MlxCall ref = run_split_reference(s, test::sm90());
    EXPECT_EQ(ref.launches.size(), pieces.size());
    for (const MlxLaunch& l : ref.launches) EXPECT_TRUE(predict_launch(l.spec, test::sm90()).accepted) << tokens;
  }
}

}  // namespace
}  // namespace gridfuzz::mlx
