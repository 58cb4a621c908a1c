#pragma once
// Named shape profiles of real models (each number from the model's published config.json), and
// the layer shapes they give a kernel: the LM head, the MoE gate/up and down projections, the
// dense FFN up and down projections. A shape sets axes by name, so it applies to any kernel,
// built-in or plugin, whose axes carry these names (docs/MODELS.md lists them).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/params.hpp"

namespace gridfuzz {

struct ModelProfile {
  std::string name;                       // "llama3-8b"
  std::string source;                     // where the numbers come from (Hugging Face repo, config keys)
  std::uint64_t hidden = 0;               // hidden_size
  std::uint64_t vocab = 0;                // vocab_size
  std::uint64_t dense_intermediate = 0;   // intermediate_size of the dense FFN; 0: none
  std::uint64_t experts = 0;              // routed experts; 0: a dense model
  std::uint64_t top_k = 0;                // experts per token
  std::uint64_t expert_intermediate = 0;  // intermediate size of one expert
  bool is_moe() const { return experts > 0; }
};

const std::vector<ModelProfile>& model_profiles();
const ModelProfile* find_model_profile(std::string_view name);  // nullptr when unknown

// One layer shape of a profile. `values` are axis values by axis name; `optional` ones are set
// only where the kernel has that axis (a `proj` choice, say).
struct ProfileShape {
  std::string profile;                       // "deepseek-v3"
  std::string role;                          // "lm_head", "moe.gate_up", "moe.down", "ffn.up", "ffn.down"
  std::map<std::string, std::string> values;
  std::map<std::string, std::string> optional;
  std::string label() const { return profile + ":" + role; }
};

// Every shape of a profile. The MoE gate and up projections are one fused bank (rows = 2 x the
// expert intermediate size), as GGUF MoE runtimes store them; the dense FFN's up projection is one
// matrix (rows = the intermediate size).
std::vector<ProfileShape> profile_shapes(const ModelProfile& profile);

// The shapes a kernel with `axes` takes: every axis of `values` is one of its integer or choice
// axes, and the kernel has no axis that names a model quantity the shape leaves out (vocab,
// experts, top_k): an MoE kernel gets the MoE shapes, not the dense ones.
std::vector<ProfileShape> shapes_for_axes(const ModelProfile& profile, const std::vector<AxisSpec>& axes);

// `base` with the shape's values (and its optional ones where the axis exists) set.
Params apply_shape(const ProfileShape& shape, Params base, const std::vector<AxisSpec>& axes);

}  // namespace gridfuzz
