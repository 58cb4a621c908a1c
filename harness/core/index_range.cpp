#include "gridfuzz/index_range.hpp"

#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {

// to_string(IndexType) and parse_index_type: core/vocabulary.cpp, with the other words.

u128 first_wrapping_value(IndexType t) {
  switch (t) {
    case IndexType::int32: return u128{1} << 31;
    case IndexType::uint32: return u128{1} << 32;
    case IndexType::int64: return u128{1} << 63;
    case IndexType::uint64: return u128{1} << 64;
    case IndexType::int16: return u128{1} << 15;
    case IndexType::uint16: return u128{1} << 16;
  }
  return 0;
}

IndexVerdict check_index(const IndexRange& r) {
  IndexVerdict v;
  v.name = r.name;
  v.max_value = r.max_value;
  v.limit = first_wrapping_value(r.type);
  v.safe = r.max_value < v.limit;
  return v;
}

std::string IndexVerdict::describe() const {
  if (safe) return IndexWrap::safe().to_string();
  return IndexWrap::wrap(name).to_string() + " (max " + to_string_u128(max_value) + " >= " + to_string_u128(limit) + ")";
}

}  // namespace gridfuzz
