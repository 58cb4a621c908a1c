#pragma once
// A crossing is found again and again: a profile's size crossing from every model's shape (the
// same size of the same call crossing the same width, at model widths that cost seconds a case),
// a model boundary at each period of an int32 product that wraps (legacy's grid goes to zero, to a
// refusal, to a wrong grid and back every 2^32 elements). Such repeats test what the first copy
// tests: the plan keeps the cheapest copies of each (docs/MODELS.md, "Repeated crossings"). Pure
// host code over what the model predicts, so it holds for plugin kernels as for the built-in ones.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gridfuzz {

// One planned crossing, as repeats are told apart: what it tests and what it costs.
struct CrossingCopy {
  // The same key, the same test: scope (a size crossing: any start shape; a model boundary: its
  // start shape), variant, axis, rule, direction and crossing_points_line (cheaper_crossing.hpp).
  std::string key;
  std::uint64_t bytes = 0;  // device bytes of its case at the crossing
  std::size_t keep = 1;     // how many copies of its key are planned
  bool always = false;      // planned whatever its rank (the defaults' size crossings, a stand-in
                            // for points another variant skips), and counted among the kept
};

// Which copies are repeats: of each key's copies, those planned always first, then the cheapest
// (by bytes, then in the order given) are kept up to `keep`; the others are repeats.
std::vector<bool> repeated_crossings(const std::vector<CrossingCopy>& copies);

}  // namespace gridfuzz
