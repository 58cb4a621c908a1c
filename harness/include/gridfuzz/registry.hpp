#pragma once
// All kernels gridfuzz knows: the built-in families and those a --plugin library registers.
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

class Registry {
 public:
  static Registry& instance();
  // Throws std::invalid_argument when the name is already taken.
  void add(std::shared_ptr<const Kernel> kernel);
  std::shared_ptr<const Kernel> find(const std::string& name) const;  // nullptr when unknown
  std::vector<std::shared_ptr<const Kernel>> all() const;             // sorted by name

 private:
  std::vector<std::shared_ptr<const Kernel>> kernels_;
};

}  // namespace gridfuzz
