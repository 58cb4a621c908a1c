#include "gridfuzz/engine/shared_reference.hpp"

#include <unordered_map>
#include <utility>

namespace gridfuzz {

std::string reference_group_key(const Case& c) {
  return c.kernel + "/" + std::to_string(c.seed) + "/" + c.params.to_string();
}

std::string shared_reference_key(const Case& c, const std::vector<BufferSpec>& specs) {
  std::string key = reference_group_key(c);
  for (const BufferSpec& s : specs)
    key += "|" + s.name + ":" + std::to_string(static_cast<int>(s.role)) + ":" +
           std::to_string(static_cast<int>(s.type)) + ":" + std::to_string(s.elements);
  return key;
}

std::vector<std::size_t> reference_group_order(const std::vector<Case>& cases) {
  std::vector<std::vector<std::size_t>> groups;  // in order of their first case
  std::unordered_map<std::string, std::size_t> group_of;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto [it, first] = group_of.emplace(reference_group_key(cases[i]), groups.size());
    if (first) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<std::size_t> order;
  order.reserve(cases.size());
  for (const auto& g : groups) order.insert(order.end(), g.begin(), g.end());
  return order;
}

void SharedReference::keep_only(const std::string& key) {
  if (outputs_ && key != key_) {
    outputs_.reset();
    key_.clear();
  }
}

std::unique_ptr<GuardedBuffers> SharedReference::take(const std::string& key) {
  if (!outputs_ || key != key_) return nullptr;
  key_.clear();
  return std::move(outputs_);
}

void SharedReference::keep(std::string key, std::unique_ptr<GuardedBuffers> outputs) {
  key_ = std::move(key);
  outputs_ = std::move(outputs);
}

}  // namespace gridfuzz
