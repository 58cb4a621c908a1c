#pragma once
// Which known-failure ledger a command reads (properties/known-failures.txt, ledger.hpp): the one
// `--ledger` names, else the checked-in ledger of the source tree gridfuzz was built from, else
// ./properties/known-failures.txt (a copied checkout), else none. The run commands judge cases
// by it; `report` and `diff` say which of its findings the rows no longer match.
#include <string>

#include "gridfuzz/core/ledger.hpp"

namespace gridfuzz::app {

struct LedgerFile {
  Ledger ledger;
  std::string path;         // where it was read; empty when there is none
  bool named = false;       // named by --ledger
};

// Throws std::invalid_argument naming path:line for a bad entry (exit 2), FileReadError when the
// file cannot be read.
LedgerFile load_ledger_file(const std::string& option);

}  // namespace gridfuzz::app
