// app/corpus_file: `sweep --save-corpus DIR` writes DIR/<case id>.replay like every output
// (core/output_file.hpp): never through a link planted in DIR, over a file only when it holds a
// replay string (it opened DIR/<id>.replay with std::ofstream, following links and truncating).
#include "gridfuzz/app/corpus_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-corpus-file-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(CorpusFile, SavesTheReplayAndReplacesOnlyAReplayFile) {
  TempDir tmp;
  const fs::path dir = tmp.path / "corpus";
  const Case c{"gguf.mmvq", "legacy", Params::parse("nvecs=786421,rows=1406"), 3};
  const fs::path path = save_corpus_case(c, dir.string());  // the folder is made
  EXPECT_EQ(path, dir / (c.id() + ".replay"));
  EXPECT_EQ(slurp(path), c.replay() + "\n");
  EXPECT_EQ(save_corpus_case(c, dir.string()), path.string());  // its own file: replaced
  EXPECT_TRUE(is_replay_file(c.replay() + "\n"));
  EXPECT_FALSE(is_replay_file("my notes\n"));
  // A file of that name that is not a replay, a link planted there.
  std::ofstream(path) << "my notes\n";
  EXPECT_THROW(save_corpus_case(c, dir.string()), OutputPathError);
  EXPECT_EQ(slurp(path), "my notes\n");
  fs::remove(path);
  std::ofstream(tmp.path / "victim") << c.replay() << "\n";
  fs::create_symlink(tmp.path / "victim", path);
  EXPECT_THROW(save_corpus_case(c, dir.string()), OutputPathError);
  EXPECT_TRUE(fs::is_symlink(path));
  // DIR a file: said before the sweep, and refused when saving.
  std::ofstream(tmp.path / "file") << "x";
  EXPECT_THROW(check_corpus_folder((tmp.path / "file").string()), UsageError);
  EXPECT_NO_THROW(check_corpus_folder((tmp.path / "new").string()));
  EXPECT_THROW(save_corpus_case(c, (tmp.path / "file").string()), OutputPathError);
}

}  // namespace
}  // namespace gridfuzz::app
