#include "gridfuzz/formats/affine/params.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gridfuzz/formats/affine/quantize.hpp"

namespace gridfuzz::formats::affine {
namespace {

bool mentions(const std::optional<std::string>& error, const std::string& word) {
  return error && error->find(word) != std::string::npos;
}

TEST(AffineParams, EverySupportedPairValidates) {
  for (int bits : {2, 3, 4, 5, 6, 8}) {
    for (int group_size : {32, 64, 128}) {
      EXPECT_EQ(validate_params({bits, group_size}), std::nullopt) << bits << "/" << group_size;
      EXPECT_EQ(validate_shape({bits, group_size}, 3, 256), std::nullopt);
    }
  }
  EXPECT_EQ(max_quant(2), 3);
  EXPECT_EQ(max_quant(8), 255);
}

TEST(AffineParams, UnsupportedBitsAndGroupSizesAreNamed) {
  for (int bits : {0, 1, 7, 16, -4}) {
    const auto error = validate_params({bits, 64});
    EXPECT_TRUE(mentions(error, "bits " + std::to_string(bits))) << error.value_or("<none>");
  }
  for (int group_size : {0, 16, 48, 256}) {
    const auto error = validate_params({4, group_size});
    EXPECT_TRUE(mentions(error, "group_size " + std::to_string(group_size)))
        << error.value_or("<none>");
  }
}

TEST(AffineParams, ShapeRules) {
  EXPECT_TRUE(mentions(validate_shape({4, 64}, 8, 96), "not a multiple of group_size 64"));
  EXPECT_TRUE(mentions(validate_shape({4, 64}, 8, 0), "K must be positive"));
  EXPECT_EQ(validate_shape({4, 128}, 0, 128), std::nullopt);  // zero rows is an empty matrix
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 64;
  EXPECT_TRUE(mentions(validate_shape({4, 64}, huge, 128), "overflows"));
}

TEST(AffineParams, PackingNeedsWholeWords) {
  EXPECT_EQ(validate_packing(32, 3), std::nullopt);
  EXPECT_EQ(validate_packing(4, 8), std::nullopt);
  EXPECT_EQ(validate_packing(16, 6), std::nullopt);  // 96 bits
  EXPECT_TRUE(mentions(validate_packing(10, 3), "not a multiple of 32"));
  EXPECT_TRUE(mentions(validate_packing(12, 5), "not a multiple of 32"));
  EXPECT_TRUE(mentions(validate_packing(32, 9), "outside [1, 8]"));
}

TEST(AffineParams, ThrowIfErrorCarriesTheReason) {
  EXPECT_NO_THROW(throw_if_error(validate_shape({4, 64}, 8, 128)));
  try {
    throw_if_error(validate_shape({4, 64}, 8, 96));
    FAIL() << "an invalid shape passed";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), *validate_shape({4, 64}, 8, 96));
  }
}

TEST(AffineParams, QuantizeReportsTheValidationMessage) {
  const std::vector<float> w(96, 1.0f);
  try {
    (void)quantize(w, 1, 96, {4, 64}, Dtype::bfloat16);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), *validate_shape({4, 64}, 1, 96));
  }
  const std::vector<float> ok(64, 1.0f);
  EXPECT_THROW((void)quantize(ok, 1, 64, {7, 64}, Dtype::bfloat16), std::invalid_argument);
  EXPECT_THROW((void)quantize(ok, 1, 64, {4, 64}, Dtype::float32), std::invalid_argument);
  EXPECT_THROW((void)quantize(ok, 2, 64, {4, 64}, Dtype::float16), std::invalid_argument);
  std::vector<float> bad = ok;
  bad[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW((void)quantize(bad, 1, 64, {4, 64}, Dtype::float16), std::invalid_argument);
  EXPECT_NO_THROW((void)quantize(ok, 1, 64, {4, 64}, Dtype::float16));
}

}  // namespace
}  // namespace gridfuzz::formats::affine
