#include "gridfuzz/engine/environment.hpp"

#include <stdexcept>

namespace gridfuzz {

const Kernel& Environment::kernel(const std::string& name) const {
  if (auto k = registry->find(name)) return *k;
  std::string known;
  for (const auto& k : registry->all()) known += (known.empty() ? "" : ", ") + k->name();
  throw std::invalid_argument("unknown kernel '" + name + "' (known: " + known + ")");
}

}  // namespace gridfuzz
