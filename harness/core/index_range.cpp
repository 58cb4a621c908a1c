#include "gridfuzz/index_range.hpp"

namespace gridfuzz {

std::string to_string(IndexType t) {
  switch (t) {
    case IndexType::int32: return "int32";
    case IndexType::uint32: return "uint32";
    case IndexType::int64: return "int64";
    case IndexType::uint64: return "uint64";
    case IndexType::int16: return "int16";
    case IndexType::uint16: return "uint16";
  }
  return "?";
}

std::optional<IndexType> parse_index_type(const std::string& s) {
  for (IndexType t : {IndexType::int16, IndexType::uint16, IndexType::int32, IndexType::uint32, IndexType::int64,
                      IndexType::uint64})
    if (to_string(t) == s) return t;
  return std::nullopt;
}

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
  if (safe) return "safe";
  return "wrap:" + name + " (max " + to_string_u128(max_value) + " >= " + to_string_u128(limit) + ")";
}

}  // namespace gridfuzz
