#include "gridfuzz/core/model_profiles.hpp"

#include <algorithm>

namespace gridfuzz {

const std::vector<ModelProfile>& model_profiles() {
  // From each model's config.json on Hugging Face (the repository and the keys are named in
  // `source`); docs/MODELS.md has the same table. gemma-4-26b-a4b is the shape of gridfuzz's
  // own defaults (docs/KERNELS.md, "Model shapes").
  static const std::vector<ModelProfile> profiles = {
      {"llama3-8b", "meta-llama/Meta-Llama-3-8B: hidden_size, vocab_size, intermediate_size", 4096, 128256, 14336},
      {"llama3-70b", "meta-llama/Meta-Llama-3-70B: hidden_size, vocab_size, intermediate_size", 8192, 128256, 28672},
      // The one profile whose FFN input is wider than 32768: the q8_1 quantizers' int i_padded
      // (vLLM's gguf_kernel.cu:41) wraps in a 65535-row tile only past that width.
      {"llama3.1-405b", "meta-llama/Llama-3.1-405B: hidden_size, vocab_size, intermediate_size", 16384, 128256,
       53248},
      {"qwen3-30b-a3b",
       "Qwen/Qwen3-30B-A3B: hidden_size, vocab_size, intermediate_size, num_experts, num_experts_per_tok, "
       "moe_intermediate_size",
       2048, 151936, 6144, 128, 8, 768},
      {"qwen3-235b-a22b",
       "Qwen/Qwen3-235B-A22B: hidden_size, vocab_size, intermediate_size, num_experts, num_experts_per_tok, "
       "moe_intermediate_size",
       4096, 151936, 12288, 128, 8, 1536},
      {"gemma-3-27b", "google/gemma-3-27b-it text_config: hidden_size, vocab_size, intermediate_size", 5376, 262208,
       21504},
      {"gemma-4-26b-a4b", "gridfuzz's defaults (docs/KERNELS.md): hidden 2816, vocab 262144, 128 experts, top_k 8, "
                          "expert intermediate 704",
       2816, 262144, 0, 128, 8, 704},
      {"deepseek-v3",
       "deepseek-ai/DeepSeek-V3: hidden_size, vocab_size, intermediate_size, n_routed_experts, num_experts_per_tok, "
       "moe_intermediate_size",
       7168, 129280, 18432, 256, 8, 2048},
      {"kimi-k2",
       "moonshotai/Kimi-K2-Instruct: hidden_size, vocab_size, intermediate_size, n_routed_experts, "
       "num_experts_per_tok, moe_intermediate_size",
       7168, 163840, 18432, 384, 8, 2048},
      {"mixtral-8x7b",
       "mistralai/Mixtral-8x7B-v0.1: hidden_size, vocab_size, num_local_experts, num_experts_per_tok, "
       "intermediate_size (per expert)",
       4096, 32000, 0, 8, 2, 14336},
      {"gpt-oss-120b",
       "openai/gpt-oss-120b: hidden_size, vocab_size, num_local_experts, num_experts_per_tok, intermediate_size "
       "(per expert)",
       2880, 201088, 0, 128, 4, 2880},
  };
  return profiles;
}

const ModelProfile* find_model_profile(std::string_view name) {
  for (const ModelProfile& p : model_profiles())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<ProfileShape> profile_shapes(const ModelProfile& m) {
  const auto text = [](std::uint64_t v) { return std::to_string(v); };
  std::vector<ProfileShape> out;
  out.push_back({m.name, "lm_head", {{"vocab", text(m.vocab)}, {"cols", text(m.hidden)}}, {}});
  if (m.is_moe()) {
    const std::map<std::string, std::string> routing{{"experts", text(m.experts)}, {"top_k", text(m.top_k)}};
    ProfileShape gate_up{m.name, "moe.gate_up", routing, {{"proj", "gate_up"}}};
    gate_up.values["rows"] = text(2 * m.expert_intermediate);
    gate_up.values["cols"] = text(m.hidden);
    ProfileShape down{m.name, "moe.down", routing, {{"proj", "down"}}};
    down.values["rows"] = text(m.hidden);
    down.values["cols"] = text(m.expert_intermediate);
    out.push_back(std::move(gate_up));
    out.push_back(std::move(down));
  }
  if (m.dense_intermediate > 0) {
    out.push_back({m.name, "ffn.up", {{"rows", text(m.dense_intermediate)}, {"cols", text(m.hidden)}}, {}});
    out.push_back({m.name, "ffn.down", {{"rows", text(m.hidden)}, {"cols", text(m.dense_intermediate)}}, {}});
  }
  return out;
}

std::vector<ProfileShape> shapes_for_axes(const ModelProfile& profile, const std::vector<AxisSpec>& axes) {
  const auto has_axis = [&](const std::string& name) {
    return std::any_of(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
  };
  std::vector<ProfileShape> out;
  for (ProfileShape& shape : profile_shapes(profile)) {
    bool fits = std::all_of(shape.values.begin(), shape.values.end(), [&](const auto& kv) { return has_axis(kv.first); });
    for (const char* quantity : {"vocab", "experts", "top_k"})
      if (has_axis(quantity) && !shape.values.contains(quantity)) fits = false;
    if (fits) out.push_back(std::move(shape));
  }
  return out;
}

Params apply_shape(const ProfileShape& shape, Params base, const std::vector<AxisSpec>& axes) {
  for (const auto& [axis, value] : shape.values) base.set(axis, value);
  for (const auto& [axis, value] : shape.optional)
    if (std::any_of(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == axis; })) base.set(axis, value);
  return base;
}

}  // namespace gridfuzz
