#pragma once
// CTest resource allocation for GPU tests: with `ctest --resource-spec-file` each GPU test is given
// one GPU slot (RESOURCE_GROUPS gpus:1), announced in CTEST_RESOURCE_GROUP_0_GPUS="id:3,slots:1".
// Mapping it to CUDA_VISIBLE_DEVICES before CUDA starts makes the assigned GPU device 0 of the test,
// so `ctest -j` runs GPU tests on all GPUs without two sharing one.
#include <optional>
#include <string>

namespace gridfuzz::testing {

// The GPU id in a CTest resource value "id:3,slots:1"; nullopt when absent or malformed.
inline std::optional<std::string> gpu_id_from_ctest_resource(const std::string& value) {
  const std::string key = "id:";
  const auto at = value.find(key);
  if (at == std::string::npos) return std::nullopt;
  const auto end = value.find(',', at);
  std::string id = value.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return id;
}

// The CUDA_VISIBLE_DEVICES value that makes GPU `id` (a CUDA ordinal as the parent saw it) device
// 0 of the test: `id` itself, or, when the parent already restricted the visible GPUs, the
// id-th entry of its list. nullopt when the list has no such entry.
inline std::optional<std::string> cuda_visible_devices_for(const std::string& id, const char* parent_visible) {
  if (!parent_visible || !*parent_visible) return id;
  if (id.empty() || id.size() > 6 || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const std::string list = parent_visible;
  std::size_t index = std::stoul(id), start = 0;
  for (;;) {
    const auto comma = list.find(',', start);
    if (index == 0) {
      std::string entry = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (entry.empty()) return std::nullopt;
      return entry;
    }
    if (comma == std::string::npos) return std::nullopt;
    --index;
    start = comma + 1;
  }
}

}  // namespace gridfuzz::testing
