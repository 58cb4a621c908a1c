// `gridfuzz list`: kernels, variants, axes with defaults and ranges. --json: the same as one JSON
// object {"kernels": [{"name", "description", "variants", "axes": [...]}]}.
#include <iostream>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/json_writer.hpp"
#include "gridfuzz/app/session.hpp"

namespace gridfuzz::app {
namespace {

std::string list_json() {
  JsonWriter j;
  j.begin_object().key("kernels").begin_array();
  for (const auto& k : builtin_registry().all()) {
    j.begin_object().field("name", k->name()).field("description", k->description());
    j.key("variants").begin_array();
    for (const auto& v : k->variants()) j.value(v);
    j.end_array();
    j.key("axes").begin_array();
    for (const auto& a : k->axes()) {
      j.begin_object().field("name", a.name).field("default", a.default_value);
      if (a.is_choice()) {
        j.field("choices", a.choices);
      } else {
        j.field("min", static_cast<long long>(a.min)).field("max", static_cast<long long>(a.max));
        j.field("step", static_cast<long long>(a.step));
      }
      j.field("help", a.help).end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().end_object();
  return j.str();
}

}  // namespace

Runner add_list_command(CLI::App& app, const GlobalOptions&) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "kernels, their variants and axes (with defaults and constraints)");
  cmd->add_flag("--json", *json, "print the list as one JSON object");
  return [json]() -> int {
    if (*json) {
      std::cout << list_json();
      return kOk;
    }
    for (const auto& k : builtin_registry().all()) {
      std::cout << k->name() << ": " << k->description() << "\n  variants:";
      for (const auto& v : k->variants()) std::cout << " " << v;
      std::cout << "\n";
      for (const auto& a : k->axes()) {
        std::cout << "  --set " << a.name << "=  (default " << a.default_value << "; ";
        if (a.is_choice()) {
          for (std::size_t i = 0; i < a.choices.size(); ++i) std::cout << (i ? "|" : "") << a.choices[i];
        } else {
          std::cout << a.min << ".." << a.max;
        }
        std::cout << ")  " << a.help << "\n";
      }
    }
    return kOk;
  };
}

}  // namespace gridfuzz::app
