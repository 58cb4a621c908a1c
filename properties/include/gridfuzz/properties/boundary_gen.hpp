#pragma once
// Boundary-biased generators: most values land within +-2 of a limit (where bugs live), the rest
// anywhere in range (so the property still covers the space between limits). Every sweep uses
// these, from the Predictor's properties to the kernel shape generators.
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gridfuzz::properties {

// A value in [lo, hi]: 80% of the time limit-2..limit+2 for one of `limits` (clamped to the
// range), otherwise uniform in [lo, hi].
inline rc::Gen<std::uint64_t> near_limits(std::vector<std::uint64_t> limits, std::uint64_t lo, std::uint64_t hi) {
  auto near = rc::gen::map(
      rc::gen::pair(rc::gen::elementOf(limits), rc::gen::inRange<int>(-2, 3)),
      [lo, hi](const std::pair<std::uint64_t, int>& p) {
        const std::uint64_t base = p.first;
        std::uint64_t v = base;
        if (p.second < 0) v = base >= static_cast<std::uint64_t>(-p.second) ? base - static_cast<std::uint64_t>(-p.second) : 0;
        if (p.second > 0) v = base <= UINT64_MAX - static_cast<std::uint64_t>(p.second) ? base + static_cast<std::uint64_t>(p.second) : UINT64_MAX;
        return std::clamp(v, lo, hi);
      });
  // inRange's upper bound is exclusive: widen by one where possible.
  auto anywhere = hi == UINT64_MAX ? rc::gen::arbitrary<std::uint64_t>()
                                   : rc::gen::map(rc::gen::inRange<std::uint64_t>(lo, hi + 1), [](std::uint64_t v) { return v; });
  return rc::gen::weightedOneOf<std::uint64_t>({{4, near}, {1, anywhere}});
}

// A value in [lo, hi] whose order of magnitude is uniform: small and large shapes are equally
// likely, instead of almost every draw landing near hi.
inline rc::Gen<std::uint64_t> log_uniform(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  int bits = 0;
  while (bits < 64 && (span >> bits) != 0) ++bits;
  return rc::gen::mapcat(rc::gen::inRange<int>(0, bits + 1), [lo, span](int e) {
    const std::uint64_t top = e >= 64 ? UINT64_MAX : (std::uint64_t{1} << e) - 1;
    const std::uint64_t cap = top < span ? top : span;
    return rc::gen::map(cap == UINT64_MAX ? rc::gen::arbitrary<std::uint64_t>() : rc::gen::inRange<std::uint64_t>(0, cap + 1),
                        [lo](std::uint64_t v) { return lo + v; });
  });
}

}  // namespace gridfuzz::properties
