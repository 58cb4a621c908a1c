#include "gridfuzz/app/corpus_file.hpp"

#include <filesystem>
#include <system_error>

#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {

void check_corpus_folder(const std::string& dir) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status))
    throw UsageError("--save-corpus '" + dir + "' exists and is not a folder");
}

bool is_replay_file(std::string_view head) {
  const std::string line(head.substr(0, head.find('\n')));
  try {
    Case::parse_replay(line);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::string save_corpus_case(const Case& c, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec == std::errc::not_a_directory || ec == std::errc::file_exists)
    throw OutputPathError("--save-corpus '" + dir + "': a part of the path is not a folder");
  if (ec) throw FileWriteError("--save-corpus '" + dir + "': cannot create the folder: " + ec.message());
  const std::filesystem::path path = std::filesystem::path(dir) / (c.id() + ".replay");
  write_output_file(OutputFile{path, "--save-corpus", "a replay file", is_replay_file, {}}, c.replay() + "\n");
  return path.string();
}

}  // namespace gridfuzz::app
