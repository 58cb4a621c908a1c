#include "gridfuzz/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace gridfuzz {
namespace {

// Names travel in replay strings (KERNEL/VARIANT/SEED/name=value,...), CSV rows, file names and
// terminals: printable ASCII without space and without the replay string's separators.
void check_name(const std::string& what, const std::string& name) {
  if (name.empty()) throw std::invalid_argument(what + " is empty");
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '/' || c == ',' || c == '=' || c == '"' || c == '\\')
      throw std::invalid_argument(what + " '" + name.substr(0, 64) +
                                  "' has a character a name may not have (printable ASCII, no space, no / , = \" \\)");
  }
}

}  // namespace

Registry& Registry::instance() {
  static Registry r;
  return r;
}

void Registry::add(std::shared_ptr<const Kernel> kernel) {
  if (!kernel) throw std::invalid_argument("Registry::add: null kernel");
  check_name("kernel name", kernel->name());
  for (const std::string& variant : kernel->variants()) check_name("kernel '" + kernel->name() + "': variant", variant);
  for (const AxisSpec& axis : kernel->axes()) check_name("kernel '" + kernel->name() + "': axis", axis.name);
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
