#pragma once
// `--model NAME[,NAME...]` (run, bisect, sweep): model profiles by name, and the start shapes a
// kernel takes from them (gridfuzz/model_profiles.hpp). `gridfuzz models` lists the names.
#include <string>
#include <vector>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/core/model_profiles.hpp"

namespace gridfuzz::app {

// "llama3-8b,deepseek-v3" -> the profiles; "all" -> every profile; "none" -> no profile. An
// unknown name is a UsageError that lists the known ones.
std::vector<const ModelProfile*> parse_models(const std::string& text);

// The shapes of `profiles` that `kernel` takes, applied to its defaults. A kernel that takes none
// is a UsageError (it names the axes the profiles set).
struct ModelStart {
  std::string label;  // "<profile>:<role>"
  Params params;
};
std::vector<ModelStart> model_starts(const Kernel& kernel, const std::vector<const ModelProfile*>& profiles);

}  // namespace gridfuzz::app
