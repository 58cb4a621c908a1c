// The configurations of hopper_configs.hpp, one per file (hopper_config_*.cu), so nvcc builds them
// in parallel.
#include "hopper_configs.hpp"

#include <stdexcept>

namespace gridfuzz::bench {

void launch_coop_128x128x64(const affine::HopperQmmArgs& a, CUstream stream);
void launch_coop_256x128x64(const affine::HopperQmmArgs& a, CUstream stream);
void launch_pingpong_64x128x64(const affine::HopperQmmArgs& a, CUstream stream);

namespace {
struct Config {
  const char* name;
  void (*launch)(const affine::HopperQmmArgs&, CUstream);
};
constexpr Config kConfigs[] = {{"coop_128x128x64", launch_coop_128x128x64},
                               {"coop_256x128x64", launch_coop_256x128x64},
                               {"pingpong_64x128x64", launch_pingpong_64x128x64}};
}  // namespace

std::vector<std::string> hopper_config_names() {
  std::vector<std::string> names;
  for (const Config& c : kConfigs) names.emplace_back(c.name);
  return names;
}

void launch_hopper_config(const std::string& name, const affine::HopperQmmArgs& args, CUstream stream) {
  for (const Config& c : kConfigs)
    if (name == c.name) return c.launch(args, stream);
  throw std::invalid_argument("no hopper configuration named " + name);
}

}  // namespace gridfuzz::bench
