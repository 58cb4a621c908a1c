#include "gemv_functions.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace gridfuzz::gguf {

const device::Function& gemv_function(GemvKernelFamily family, QuantType t, OutDtype d) {
  static std::mutex mutex;
  static std::map<std::tuple<GemvKernelFamily, QuantType, OutDtype>, device::Function> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(family, t, d);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const void* symbol = nullptr;
  std::string name = "gemv_";
  switch (family) {
    case GemvKernelFamily::legacy: symbol = gemv_legacy_symbol(t, d); name += "legacy"; break;
    case GemvKernelFamily::wide_pairs_x: symbol = gemv_pairs_x_symbol(t, d); name += "pairs_x"; break;
    case GemvKernelFamily::wide_rows_x: symbol = gemv_rows_x_symbol(t, d); name += "rows_x"; break;
  }
  name += "<" + std::string(quant_traits(t).name) + "," + to_string(d) + ">";
  return cache.emplace(key, device::Function::from_symbol(symbol, name)).first->second;
}

}  // namespace gridfuzz::gguf
