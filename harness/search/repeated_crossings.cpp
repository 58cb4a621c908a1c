#include "gridfuzz/search/repeated_crossings.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gridfuzz {

std::vector<bool> repeated_crossings(const std::vector<CrossingCopy>& copies) {
  std::vector<bool> repeated(copies.size(), false);
  std::map<std::string, std::vector<std::size_t>> by_key;
  for (std::size_t i = 0; i < copies.size(); ++i) by_key[copies[i].key].push_back(i);
  for (auto& [key, members] : by_key) {
    std::stable_sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      return std::tuple(!copies[a].always, copies[a].bytes) < std::tuple(!copies[b].always, copies[b].bytes);
    });
    for (std::size_t rank = 0; rank < members.size(); ++rank)
      repeated[members[rank]] = rank >= copies[members[rank]].keep && !copies[members[rank]].always;
  }
  return repeated;
}

}  // namespace gridfuzz
