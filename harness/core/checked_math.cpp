#include "gridfuzz/checked_math.hpp"

#include <algorithm>

namespace gridfuzz {

std::string to_string_u128(u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

}  // namespace gridfuzz
