#pragma once
// Texts kept once each, named by a 32-bit id: what a report or diff keeps of the rows' repeated
// words (kernels, devices, axis values), a few bytes a row instead of a string each. The texts
// live in one buffer, the ids in an open-addressed table: about 12 bytes per distinct text
// beside its characters.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridfuzz::reports {

class StringPool {
 public:
  // The id of `text`, added when new. Ids count from 0 in the order texts were added.
  std::uint32_t intern(std::string_view text);
  // The id of `text` when it was added; nothing is added.
  std::optional<std::uint32_t> find(std::string_view text) const;
  std::string_view text(std::uint32_t id) const;
  std::size_t size() const noexcept { return ends_.size(); }

 private:
  std::size_t slot_of(std::string_view text) const;  // its slot, or the empty slot it would take
  void grow();

  std::string chars_;                 // every text, one after the other
  std::vector<std::uint64_t> ends_;   // where text `id` ends in chars_ (it starts at the previous end)
  std::vector<std::uint32_t> slots_;  // id + 1, or 0 for an empty slot; a power of two, at most half full
};

}  // namespace gridfuzz::reports
