// `gridfuzz models`: the model profiles (--model on run, bisect and sweep), each with its source,
// and the layer shapes it gives. --json: {"models": [{"name", "source", "hidden", ..., "shapes"}]}.
#include <iostream>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/core/model_profiles.hpp"
#include "gridfuzz/app/json_writer.hpp"

namespace gridfuzz::app {
namespace {

std::string shape_text(const ProfileShape& s) {
  std::string out;
  for (const auto& [axis, value] : s.values) out += (out.empty() ? "" : ",") + axis + "=" + value;
  for (const auto& [axis, value] : s.optional) out += "," + axis + "=" + value + "(if the kernel has it)";
  return out;
}

std::string models_json() {
  JsonWriter j;
  j.begin_object().key("models").begin_array();
  for (const ModelProfile& m : model_profiles()) {
    j.begin_object().field("name", m.name).field("source", m.source);
    j.field("hidden", static_cast<long long>(m.hidden)).field("vocab", static_cast<long long>(m.vocab));
    j.field("dense_intermediate", static_cast<long long>(m.dense_intermediate));
    j.field("experts", static_cast<long long>(m.experts)).field("top_k", static_cast<long long>(m.top_k));
    j.field("expert_intermediate", static_cast<long long>(m.expert_intermediate));
    j.key("shapes").begin_array();
    for (const ProfileShape& s : profile_shapes(m)) {
      j.begin_object().field("role", s.role);
      j.key("axes").begin_object();
      for (const auto& [axis, value] : s.values) j.field(axis, value);
      j.end_object();
      j.key("optional_axes").begin_object();
      for (const auto& [axis, value] : s.optional) j.field(axis, value);
      j.end_object().end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().end_object();
  return j.str();
}

}  // namespace

Runner add_models_command(CLI::App& app, const GlobalOptions&) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("models", "model profiles for --model (real models' shapes, with their sources)");
  cmd->add_flag("--json", *json, "print the profiles as one JSON object");
  return [json]() -> int {
    if (*json) {
      std::cout << models_json();
      return kOk;
    }
    for (const ModelProfile& m : model_profiles()) {
      std::cout << m.name << ": hidden " << m.hidden << ", vocab " << m.vocab;
      if (m.dense_intermediate) std::cout << ", FFN intermediate " << m.dense_intermediate;
      if (m.is_moe())
        std::cout << ", " << m.experts << " experts, top_k " << m.top_k << ", expert intermediate "
                  << m.expert_intermediate;
      std::cout << "\n  source: " << m.source << "\n";
      for (const ProfileShape& s : profile_shapes(m)) std::cout << "  " << s.role << ": " << shape_text(s) << "\n";
    }
    return kOk;
  };
}

}  // namespace gridfuzz::app
