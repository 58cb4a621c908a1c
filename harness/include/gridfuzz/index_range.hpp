#pragma once
// The index model: the largest value an index expression takes, and the C++ type the code
// declares for it. An index is safe when its largest value fits the declared type.
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz {

// 16-bit types for kernels that pack indices into shorts (tile offsets, per-block counters).
enum class IndexType { int32, uint32, int64, uint64, int16, uint16 };

std::string to_string(IndexType t);                       // "int32", ...
std::optional<IndexType> parse_index_type(const std::string& s);

// The first value that no longer fits the type: 2^15, 2^16, 2^31 (signed overflow), 2^32
// (unsigned wrap), 2^63, 2^64.
u128 first_wrapping_value(IndexType t);

struct IndexRange {
  std::string name;        // e.g. "dst_offset" or "x_byte_offset"
  u128 max_value = 0;      // exact largest value the expression reaches (byte or element units)
  IndexType type = IndexType::int32;
  std::string unit = "elements";  // "elements" or "bytes", for messages
};

struct IndexVerdict {
  bool safe = true;
  std::string name;
  u128 max_value = 0;
  u128 limit = 0;          // first wrapping value of the declared type
  std::string describe() const;  // "safe" or "wrap:<name> (max V >= 2^31 for int32)"
};

IndexVerdict check_index(const IndexRange& r);

}  // namespace gridfuzz
