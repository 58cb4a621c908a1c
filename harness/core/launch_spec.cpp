#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz {

std::string to_string(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

std::string describe(const LaunchSpec& l) {
  std::string s = l.name.empty() ? std::string("launch") : l.name;
  s += " grid=(" + to_string(l.grid) + ") block=(" + to_string(l.block) + ")";
  s += " smem=" + std::to_string(l.dynamic_smem_bytes);
  if (l.smem_optin) s += " optin";
  if (l.func.num_regs > 0) s += " regs=" + std::to_string(l.func.num_regs);
  return s;
}

}  // namespace gridfuzz
