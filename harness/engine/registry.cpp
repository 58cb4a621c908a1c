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

// What the engine divides by, indexes with or iterates over must be there: a kernel without
// variants, or an integer axis whose step is not positive or whose range is empty, is refused
// when it registers, not when a sweep first uses it.
void check_shape(const Kernel& kernel) {
  const std::string where = "kernel '" + kernel.name() + "'";
  if (kernel.variants().empty()) throw std::invalid_argument(where + " has no variant");
  for (const AxisSpec& axis : kernel.axes()) {
    if (axis.is_choice()) continue;
    if (axis.step < 1)
      throw std::invalid_argument(where + ": axis '" + axis.name + "' has step " + std::to_string(axis.step) +
                                  " (it must be at least 1)");
    if (axis.min > axis.max)
      throw std::invalid_argument(where + ": axis '" + axis.name + "' has min " + std::to_string(axis.min) +
                                  " > max " + std::to_string(axis.max));
  }
  // Every case starts from the defaults: one the axis itself refuses is a typo in axes().
  if (const auto bad = Params::validate(Params::defaults(kernel.axes()), kernel.axes()))
    throw std::invalid_argument(where + ": a default is not a valid value of its axis: " + *bad);
}

bool by_name(const std::shared_ptr<const Kernel>& k, const std::string& name) { return k->name() < name; }

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
  check_shape(*kernel);
  // Kept sorted by name, each kernel inserted in its place: registering n kernels costs n binary
  // searches (a plugin may register thousands).
  const auto at = std::lower_bound(kernels_.begin(), kernels_.end(), kernel->name(), by_name);
  if (at != kernels_.end() && (*at)->name() == kernel->name())
    throw std::invalid_argument("kernel '" + kernel->name() + "' is registered twice");
  kernels_.insert(at, std::move(kernel));
}

std::shared_ptr<const Kernel> Registry::find(const std::string& name) const {
  const auto at = std::lower_bound(kernels_.begin(), kernels_.end(), name, by_name);
  return at != kernels_.end() && (*at)->name() == name ? *at : nullptr;
}

std::vector<std::shared_ptr<const Kernel>> Registry::all() const { return kernels_; }

}  // namespace gridfuzz
