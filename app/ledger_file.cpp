#include "gridfuzz/app/ledger_file.hpp"

#include <filesystem>

namespace gridfuzz::app {

LedgerFile load_ledger_file(const std::string& option) {
  if (!option.empty()) return {Ledger::load(option), option, true};
  for (const char* candidate : {GRIDFUZZ_DEFAULT_LEDGER, "properties/known-failures.txt"})
    if (std::filesystem::exists(candidate)) return {Ledger::load(candidate), candidate, false};
  return {};
}

}  // namespace gridfuzz::app
