#pragma once
// One case: a kernel, a variant, a point in its parameter space and the input seed. Its replay
// string reproduces it exactly: KERNEL/VARIANT/SEED/name=value,name=value
#include <cstdint>
#include <string>

#include "gridfuzz/params.hpp"

namespace gridfuzz {

struct Case {
  std::string kernel;
  std::string variant;
  Params params;
  std::uint64_t seed = 1;

  std::string replay() const;
  // Stable id for the case (16 hex digits of a 64-bit FNV-1a hash of replay()): the same in every
  // run, so a resumed sweep can skip finished cases and `diff` can match rows across runs.
  std::string id() const;
  static Case parse_replay(const std::string& text);  // throws std::invalid_argument
  friend bool operator==(const Case&, const Case&) = default;
};

}  // namespace gridfuzz
