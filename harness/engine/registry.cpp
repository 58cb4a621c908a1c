#include "gridfuzz/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace gridfuzz {

Registry& Registry::instance() {
  static Registry r;
  return r;
}

void Registry::add(std::shared_ptr<const Kernel> kernel) {
  if (!kernel) throw std::invalid_argument("Registry::add: null kernel");
  if (find(kernel->name())) throw std::invalid_argument("kernel '" + kernel->name() + "' is registered twice");
  kernels_.push_back(std::move(kernel));
  std::sort(kernels_.begin(), kernels_.end(), [](const auto& a, const auto& b) { return a->name() < b->name(); });
}

std::shared_ptr<const Kernel> Registry::find(const std::string& name) const {
  for (const auto& k : kernels_)
    if (k->name() == name) return k;
  return nullptr;
}

std::vector<std::shared_ptr<const Kernel>> Registry::all() const { return kernels_; }

}  // namespace gridfuzz
