// The index model: a value is safe exactly when it fits its declared C++ type.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

#include "gridfuzz/index_range.hpp"
#include "gridfuzz/properties/boundary_gen.hpp"

using namespace gridfuzz;

namespace {

// Second formulation: compare with the type's numeric_limits max instead of a power of two.
bool fits(u128 v, IndexType t) {
  switch (t) {
    case IndexType::int16: return v <= static_cast<u128>(std::numeric_limits<std::int16_t>::max());
    case IndexType::uint16: return v <= static_cast<u128>(std::numeric_limits<std::uint16_t>::max());
    case IndexType::int32: return v <= static_cast<u128>(std::numeric_limits<std::int32_t>::max());
    case IndexType::uint32: return v <= static_cast<u128>(std::numeric_limits<std::uint32_t>::max());
    case IndexType::int64: return v <= static_cast<u128>(std::numeric_limits<std::int64_t>::max());
    case IndexType::uint64: return v <= static_cast<u128>(std::numeric_limits<std::uint64_t>::max());
  }
  return false;
}

}  // namespace

RC_GTEST_PROP(IndexRangeProperty, SafeExactlyWhenTheValueFitsItsType, ()) {
  const auto t = *rc::gen::element(IndexType::int16, IndexType::uint16, IndexType::int32, IndexType::uint32,
                                   IndexType::int64, IndexType::uint64);
  // Products of two shape values near the 2^31 / 2^32 boundaries, computed exactly in 128 bits.
  const auto a = *gridfuzz::properties::near_limits({1, 2, 65536, 1ULL << 31, 1ULL << 32, 3037000500ULL}, 0, UINT64_MAX);
  const auto b = *gridfuzz::properties::near_limits({1, 2, 4, 65535, 1ULL << 32}, 0, 1ULL << 33);
  const u128 v = u128{a} * b;
  const IndexVerdict verdict = check_index({"offset", v, t, "elements"});
  RC_ASSERT(verdict.safe == fits(v, t));
  RC_ASSERT(verdict.describe() == (fits(v, t) ? std::string("safe") : verdict.describe()));
}

TEST(IndexRange, SignedOverflowAt2Pow31UnsignedWrapAt2Pow32) {
  EXPECT_TRUE(check_index({"i", (u128{1} << 31) - 1, IndexType::int32}).safe);
  EXPECT_FALSE(check_index({"i", u128{1} << 31, IndexType::int32}).safe);
  EXPECT_TRUE(check_index({"i", (u128{1} << 32) - 1, IndexType::uint32}).safe);
  EXPECT_FALSE(check_index({"i", u128{1} << 32, IndexType::uint32}).safe);
  EXPECT_TRUE(check_index({"i", u128{1} << 40, IndexType::int64}).safe);
  EXPECT_FALSE(check_index({"i", u128{1} << 63, IndexType::int64}).safe);
  EXPECT_FALSE(check_index({"i", u128{1} << 64, IndexType::uint64}).safe);
}

TEST(IndexRange, MoeVecOutputIndexExample) {
  // gemma-4 gate/up: dst[p*nrows + row] in uint32 with nrows 1408 wraps once pairs*1408 >= 2^32,
  // i.e. at 3,050,403 pairs (docs/KERNELS.md, "Boundary formulas"); one pair earlier is safe.
  const u128 nrows = 1408;
  auto max_dst = [&](u128 pairs) { return pairs * nrows - 1; };
  EXPECT_TRUE(check_index({"dst", max_dst(3050402), IndexType::uint32}).safe);
  const IndexVerdict v = check_index({"dst", max_dst(3050403), IndexType::uint32});
  EXPECT_FALSE(v.safe);
  EXPECT_EQ(v.describe(), "wrap:dst (max 4294967423 >= 4294967296)");
}

TEST(IndexRange, BytesWrapBeforeElements) {
  // The same row offset counted in bytes of bf16 wraps an int32 at half the element count.
  const u128 elements = (u128{1} << 30) + 1;
  EXPECT_TRUE(check_index({"x_elem", elements, IndexType::int32, "elements"}).safe);
  EXPECT_FALSE(check_index({"x_byte", elements * 2, IndexType::int32, "bytes"}).safe);
}

TEST(IndexRange, TypeNamesRoundTrip) {
  for (auto t : {IndexType::int16, IndexType::uint16, IndexType::int32, IndexType::uint32, IndexType::int64,
                 IndexType::uint64})
    EXPECT_EQ(parse_index_type(to_string(t)), t);
  EXPECT_FALSE(parse_index_type("int8").has_value());
  EXPECT_EQ(to_string_u128(u128{1} << 64), "18446744073709551616");
}
