#pragma once
// Whether two cpu_reference results are the same sample set bit for bit: the same buffer and
// element, expected value and tolerances (compared as bit patterns), in the same order.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz::testing {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline ::testing::AssertionResult same_samples(const std::vector<ReferenceSample>& a,
                                               const std::vector<ReferenceSample>& b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << a.size() << " samples against " << b.size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const ReferenceSample &x = a[i], &y = b[i];
    if (x.buffer != y.buffer || x.element != y.element || !same_bits(x.expected, y.expected) ||
        !same_bits(x.rel_tol, y.rel_tol) || !same_bits(x.abs_tol, y.abs_tol)) {
      return ::testing::AssertionFailure()
             << "sample " << i << ": buffer " << x.buffer << " element " << x.element << " expected " << x.expected
             << " rel_tol " << x.rel_tol << " abs_tol " << x.abs_tol << " against buffer " << y.buffer << " element "
             << y.element << " expected " << y.expected << " rel_tol " << y.rel_tol << " abs_tol " << y.abs_tol;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gridfuzz::testing
