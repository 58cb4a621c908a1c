// `gridfuzz list`: kernels, variants, axes with defaults and ranges.
#include <iostream>

#include "commands.hpp"
#include "session.hpp"

namespace gridfuzz::cli {

Runner add_list_command(CLI::App& app, const GlobalOptions&) {
  app.add_subcommand("list", "kernels, their variants and axes (with defaults and constraints)");
  return []() -> int {
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

}  // namespace gridfuzz::cli
