#pragma once
// The CTest resource specification for the GPUs of this machine: one "gpus" resource per GPU with
// one slot, so `ctest --resource-spec-file F -j N` gives each GPU test (RESOURCE_GROUPS gpus:1) a
// GPU of its own. Ids are CUDA ordinals as this process sees them (after CUDA_VISIBLE_DEVICES).
#include <string>
#include <string_view>

namespace gridfuzz::app {

std::string ctest_resource_spec(int gpus);

// Whether a file's first bytes are those of a spec ctest_resource_spec wrote: what
// `devices --ctest-resource-spec FILE` may replace.
bool is_gridfuzz_resource_spec(std::string_view head);

}  // namespace gridfuzz::app
