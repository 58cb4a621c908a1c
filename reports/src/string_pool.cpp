#include "gridfuzz/reports/string_pool.hpp"

#include <functional>
#include <limits>
#include <stdexcept>

namespace gridfuzz::reports {

std::string_view StringPool::text(std::uint32_t id) const {
  const std::uint64_t begin = id == 0 ? 0 : ends_[id - 1];
  return std::string_view(chars_).substr(begin, ends_[id] - begin);
}

std::size_t StringPool::slot_of(std::string_view text) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(text) & mask;; slot = (slot + 1) & mask)
    if (slots_[slot] == 0 || this->text(slots_[slot] - 1) == text) return slot;
}

std::optional<std::uint32_t> StringPool::find(std::string_view text) const {
  if (slots_.empty()) return std::nullopt;
  const std::uint32_t entry = slots_[slot_of(text)];
  if (entry == 0) return std::nullopt;
  return entry - 1;
}

void StringPool::grow() {
  std::vector<std::uint32_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
  for (const std::uint32_t entry : old)
    if (entry != 0) slots_[slot_of(text(entry - 1))] = entry;
}

std::uint32_t StringPool::intern(std::string_view text) {
  if ((ends_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t slot = slot_of(text);
  if (slots_[slot] != 0) return slots_[slot] - 1;
  if (ends_.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
    throw std::length_error("more than 2^32 distinct texts");
  chars_.append(text);
  ends_.push_back(chars_.size());
  slots_[slot] = static_cast<std::uint32_t>(ends_.size());
  return static_cast<std::uint32_t>(ends_.size() - 1);
}

}  // namespace gridfuzz::reports
