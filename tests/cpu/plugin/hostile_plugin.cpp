// A plugin that breaks the adapter contract in the way GRIDFUZZ_TEST_HOSTILE names (issue 34,
// item 5): each must be refused with exit 2 naming the plugin or the kernel, never crash gridfuzz.
//   no-variants   a kernel with an empty variant list
//   zero-step     an integer axis of step 0 (a sweep divided by it)
//   bad-default   an axis whose default is outside its range (every case starts from it)
//   null-bind     bind() returns null
//   odd-throw     bind() throws an int, not a std::exception
//   odd-register  the registration function throws an int
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "gridfuzz/plugin.hpp"

namespace {

std::string mode() {
  const char* m = std::getenv("GRIDFUZZ_TEST_HOSTILE");
  return m ? m : "";
}

class HostileKernel : public gridfuzz::Kernel {
 public:
  std::string name() const override { return "hostile.k"; }
  std::string description() const override { return "breaks the adapter contract: " + mode(); }
  std::vector<std::string> variants() const override {
    if (mode() == "no-variants") return {};
    return {"only"};
  }
  std::vector<gridfuzz::AxisSpec> axes() const override {
    gridfuzz::AxisSpec rows{"rows", "rows", "4", {}, 1, 1 << 20, 1};
    if (mode() == "zero-step") rows.step = 0;
    if (mode() == "bad-default") rows.default_value = "0";
    return {rows};
  }
  std::optional<std::string> check(const gridfuzz::Params&) const override { return std::nullopt; }
  std::unique_ptr<gridfuzz::BoundCase> bind(const gridfuzz::Params&, const std::string&) const override {
    if (mode() == "odd-throw") throw 42;
    return nullptr;  // null-bind (and every other mode: no case is ever run here)
  }
};

void register_hostile(gridfuzz::Registry& registry) {
  if (mode() == "odd-register") throw 7;
  registry.add(std::make_shared<HostileKernel>());
}

}  // namespace

GRIDFUZZ_PLUGIN(register_hostile)
