#include "gemv_functions.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

namespace gridfuzz::gguf {

const device::Function& gemv_function(GemvKernelFamily family, GemvIndexWidth width, QuantType t, OutDtype d) {
  static std::mutex mutex;
  static std::map<std::tuple<GemvKernelFamily, GemvIndexWidth, QuantType, OutDtype>, device::Function> cache;
  const std::lock_guard lock(mutex);
  if (family == GemvKernelFamily::legacy) width = GemvIndexWidth::bits32;  // one legacy instantiation
  const auto key = std::make_tuple(family, width, t, d);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const void* symbol = nullptr;
  std::string name = "gemv_";
  switch (family) {
    case GemvKernelFamily::legacy: symbol = gemv_legacy_symbol(t, d); name += "legacy"; break;
    case GemvKernelFamily::tiled_pairs_x: symbol = gemv_pairs_x_symbol(t, d, width); name += "pairs_x"; break;
    case GemvKernelFamily::tiled_rows_x: symbol = gemv_rows_x_symbol(t, d, width); name += "rows_x"; break;
    case GemvKernelFamily::by_expert: symbol = gemv_by_expert_symbol(t, d, width); name += "by_expert"; break;
  }
  if (family != GemvKernelFamily::legacy) name += width == GemvIndexWidth::bits32 ? "_idx32" : "_idx64";
  name.append("<").append(quant_traits(t).name).append(",").append(to_string(d)).append(">");
  return cache.emplace(key, device::Function::from_symbol(symbol, name)).first->second;
}

const device::Function& expert_group_function(ExpertGroupStep step, GemvIndexWidth width) {
  static std::mutex mutex;
  static std::map<std::pair<ExpertGroupStep, GemvIndexWidth>, device::Function> cache;
  const std::lock_guard lock(mutex);
  const bool by_width = step == ExpertGroupStep::scatter || step == ExpertGroupStep::one_block;
  if (!by_width) width = GemvIndexWidth::bits64;  // one instantiation
  const auto key = std::make_pair(step, width);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string name = step == ExpertGroupStep::count     ? "moe_expert_count"
                     : step == ExpertGroupStep::scan    ? "moe_expert_scan"
                     : step == ExpertGroupStep::scatter ? "moe_expert_scatter"
                                                        : "moe_expert_group";
  if (by_width) name += width == GemvIndexWidth::bits32 ? "_idx32" : "_idx64";
  return cache.emplace(key, device::Function::from_symbol(expert_group_symbol(step, width), name)).first->second;
}

}  // namespace gridfuzz::gguf
