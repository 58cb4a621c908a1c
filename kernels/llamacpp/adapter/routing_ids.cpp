#include "routing_ids.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace gridfuzz::llamacpp {

std::vector<std::int32_t> routing_ids(std::uint64_t tokens, std::uint64_t top_k, std::uint64_t experts,
                                      std::uint64_t seed) {
  if (top_k > experts || experts > INT32_MAX) throw std::invalid_argument("routing_ids: top_k > experts");
  std::vector<std::int32_t> ids(tokens * top_k);
  std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
  std::uniform_int_distribution<std::uint64_t> pick(0, experts - 1);
  for (std::uint64_t t = 0; t < tokens; ++t) {
    std::int32_t* row = ids.data() + t * top_k;
    for (std::uint64_t k = 0; k < top_k; ++k) {
      std::int32_t e = 0;
      if (t == 0 && k == 0) {
        e = static_cast<std::int32_t>(experts - 1);
      } else if (top_k * 2 > experts) {
        // Dense draws: the smallest expert not yet used after a random start (no long rejection runs).
        e = static_cast<std::int32_t>(pick(rng));
        while (std::find(row, row + k, e) != row + k) e = static_cast<std::int32_t>((e + 1) % experts);
      } else {
        do e = static_cast<std::int32_t>(pick(rng));
        while (std::find(row, row + k, e) != row + k);
      }
      row[k] = e;
    }
  }
  return ids;
}

}  // namespace gridfuzz::llamacpp
