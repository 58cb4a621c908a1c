#include "gridfuzz/device/symbol_resolvers.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace gridfuzz::device {
namespace {

struct Resolvers {
  std::mutex mutex;
  std::vector<SymbolResolver> list;
};

Resolvers& resolvers() {
  static Resolvers r;
  return r;
}

}  // namespace

void add_symbol_resolver(SymbolResolver resolver) {
  if (!resolver) return;
  Resolvers& r = resolvers();
  std::lock_guard lock(r.mutex);
  if (std::find(r.list.begin(), r.list.end(), resolver) == r.list.end()) r.list.push_back(resolver);
}

CUfunction resolve_symbol_in_plugins(const void* symbol) {
  Resolvers& r = resolvers();
  std::lock_guard lock(r.mutex);
  for (SymbolResolver resolve : r.list)
    if (CUfunction f = resolve(symbol)) return f;
  return nullptr;
}

}  // namespace gridfuzz::device
