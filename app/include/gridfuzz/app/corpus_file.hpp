#pragma once
// `sweep --save-corpus DIR`: each minimal failing case as DIR/<case id>.replay, one replay string
// a file (properties/corpus holds them; the GPU tests replay them first).
#include <string>
#include <string_view>

#include "gridfuzz/core/case.hpp"

namespace gridfuzz::app {

// Throws UsageError when DIR exists and is not a folder: said before the sweep runs.
void check_corpus_folder(const std::string& dir);

// Whether a file's first bytes are a corpus file's: one replay string on its first line.
bool is_replay_file(std::string_view head);

// Writes DIR/<case id>.replay (making DIR when missing) as every output is written
// (core/output_file.hpp): never through a link, over a file only when it holds a replay string.
// Returns its path. Throws OutputPathError or FileWriteError.
std::string save_corpus_case(const Case& c, const std::string& dir);

}  // namespace gridfuzz::app
