// harness/core/output_file: every file gridfuzz writes is created without following a link,
// replaces only a file of the kind gridfuzz writes there, never an input, and is never left
// half-written at its path (docs/RELIABILITY.md, "Files gridfuzz writes").
#include "gridfuzz/core/output_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace gridfuzz {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-output-file-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  fs::path operator/(const std::string& name) const { return path / name; }
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// An output whose kind starts with "<ours>".
OutputFile ours(const fs::path& path) {
  return OutputFile{path, "--out-file", "a test file",
                    [](std::string_view head) { return head.starts_with("<ours>"); }, {}, false};
}

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputFile, CreatesAnAbsentFileAndReplacesOnlyAnEmptyOneOrItsOwnKind) {
  TempDir tmp;
  write_output_file(ours(tmp / "a.txt"), "<ours> one");
  EXPECT_EQ(slurp(tmp / "a.txt"), "<ours> one");
  write_output_file(ours(tmp / "a.txt"), "<ours> two");  // its own kind: replaced
  EXPECT_EQ(slurp(tmp / "a.txt"), "<ours> two");
  put(tmp / "empty.txt", "");
  write_output_file(ours(tmp / "empty.txt"), "<ours> three");  // nothing to lose
  EXPECT_EQ(slurp(tmp / "empty.txt"), "<ours> three");
  put(tmp / "mine.csv", "schema,kernel\n1.3,x\n");
  EXPECT_THROW(write_output_file(ours(tmp / "mine.csv"), "<ours>"), OutputPathError);
  EXPECT_EQ(slurp(tmp / "mine.csv"), "schema,kernel\n1.3,x\n");
  OutputFile create_only = ours(tmp / "a.txt");
  create_only.is_ours = nullptr;
  EXPECT_THROW(write_output_file(create_only, "x"), OutputPathError);
  EXPECT_EQ(entries_in(tmp.path), 3u) << "a temporary file was left";
}

TEST(OutputFile, NeverWritesThroughALink) {
  TempDir tmp;
  put(tmp / "target", "<ours> someone else's");
  fs::create_symlink(tmp / "target", tmp / "link");
  EXPECT_THROW(write_output_file(ours(tmp / "link"), "<ours> new"), OutputPathError);
  EXPECT_EQ(slurp(tmp / "target"), "<ours> someone else's");
  // A dangling link: following it would create its target.
  fs::create_symlink(tmp / "created", tmp / "dangling");
  EXPECT_THROW(write_output_file(ours(tmp / "dangling"), "<ours>"), OutputPathError);
  EXPECT_FALSE(fs::exists(tmp / "created"));
  // create_new_file: never over a file or a link.
  EXPECT_EQ(create_new_file(tmp / "dangling"), -1);
  EXPECT_EQ(errno, EEXIST);
  EXPECT_FALSE(fs::exists(tmp / "created"));
  EXPECT_EQ(create_new_file(tmp / "target"), -1);
  // A folder, a folder that does not exist.
  EXPECT_THROW(write_output_file(ours(tmp.path), "x"), OutputPathError);
  EXPECT_THROW(write_output_file(ours(tmp / "no/such/folder.txt"), "x"), OutputPathError);
}

TEST(OutputFile, DevicesAndFifosAreWrittenInPlaceEvenThroughALink) {
  TempDir tmp;
  EXPECT_NO_THROW(write_output_file(ours("/dev/null"), "<ours>"));
  fs::create_symlink("/dev/null", tmp / "null");
  EXPECT_NO_THROW(write_output_file(ours(tmp / "null"), "<ours>"));
  EXPECT_TRUE(fs::is_symlink(tmp / "null")) << "the link was replaced";
  ASSERT_EQ(mkfifo((tmp / "fifo").c_str(), 0600), 0);
  EXPECT_THROW(write_output_file(ours(tmp / "fifo"), "x"), OutputPathError) << "a FIFO with no reader must not hang";
}

TEST(OutputFile, AFullDiskIsAWriteErrorAndLeavesNothingHalfWritten) {
  EXPECT_THROW(write_output_file(ours("/dev/full"), "<ours>"), FileWriteError);
  TempDir tmp;
  put(tmp / "old.txt", "<ours> old");
  // A file-size limit: every write past it fails (EFBIG) as a full disk would.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4, 4};
    setrlimit(RLIMIT_FSIZE, &limit);
    int code = 0;
    try {
      write_output_file(ours(tmp / "old.txt"), "<ours> new and longer than four bytes");
      code = 1;
    } catch (const FileWriteError&) {
      code = 0;
    } catch (...) {
      code = 2;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no error, 2: another error";
  EXPECT_EQ(slurp(tmp / "old.txt"), "<ours> old") << "the old file was replaced by a half-written one";
  EXPECT_EQ(entries_in(tmp.path), 1u) << "a temporary file was left";
}

TEST(OutputFile, AnOutputIsNeverAnInputOfTheCommand) {
  TempDir tmp;
  put(tmp / "in.csv", "<ours> but an input");
  OutputFile out = ours(tmp / "in.csv");
  out.inputs = {{"the baseline", tmp / "in.csv"}};
  EXPECT_THROW(write_output_file(out, "<ours>"), OutputPathError);
  // The same file by another name: a hard link, a path through a linked folder.
  fs::create_hard_link(tmp / "in.csv", tmp / "hard.csv");
  out.path = tmp / "hard.csv";
  EXPECT_THROW(write_output_file(out, "<ours>"), OutputPathError);
  fs::create_directory_symlink(tmp.path, tmp / "alias");
  out.path = tmp / "alias" / "in.csv";
  try {
    write_output_file(out, "<ours>");
    ADD_FAILURE() << "no error";
  } catch (const OutputPathError& e) {
    EXPECT_NE(std::string(e.what()).find("the baseline"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(tmp / "in.csv"), "<ours> but an input");
}

FreshFolder::Rules report_rules() {
  return FreshFolder::Rules{"--out", ".marker", "written by a test\n",
                            [](const fs::path& rel, bool folder) {
                              return rel == "report.md" || (folder && rel == "plots") ||
                                     (!folder && rel.parent_path() == "plots" && rel.extension() == ".gp");
                            },
                            {}};
}

void fill(FreshFolder& f, const std::string& text) {
  write_output_file(OutputFile{f.staging() / "report.md", "--out", "", {}, {}, true}, text);
  fs::create_directory(f.staging() / "plots");
  write_output_file(OutputFile{f.staging() / "plots" / "a.gp", "--out", "", {}, {}, true}, text);
}

TEST(FreshFolder, IsMadeBesideItsTargetThenRenamedAndReplacesOnlyAnEarlierOne) {
  TempDir tmp;
  {
    FreshFolder f(tmp / "rep/", report_rules());
    EXPECT_EQ(f.staging().parent_path(), tmp.path);
    EXPECT_EQ(fs::status(f.staging()).permissions() & fs::perms::all, fs::perms::owner_all) << "not private";
    fill(f, "one");
    EXPECT_FALSE(fs::exists(tmp / "rep")) << "in place before commit";
    EXPECT_TRUE(f.commit().empty());
  }
  EXPECT_EQ(slurp(tmp / "rep" / "report.md"), "one");
  EXPECT_TRUE(fs::exists(tmp / "rep" / ".marker"));
  {
    FreshFolder f(tmp / "rep", report_rules());  // an earlier one: replaced whole
    fill(f, "two");
    EXPECT_TRUE(f.commit().empty());
  }
  EXPECT_EQ(slurp(tmp / "rep" / "plots" / "a.gp"), "two");
  EXPECT_EQ(entries_in(tmp.path), 1u) << "the old folder or a staging folder was left";
  {
    FreshFolder f(tmp / "abandoned", report_rules());
    fill(f, "three");
  }  // no commit: nothing stays
  EXPECT_EQ(entries_in(tmp.path), 1u);
  fs::create_directory(tmp / "empty");
  {
    FreshFolder f(tmp / "empty", report_rules());
    fill(f, "four");
    f.commit();
  }
  EXPECT_EQ(slurp(tmp / "empty" / "report.md"), "four");
}

TEST(FreshFolder, RefusesAFolderWithAnythingGridfuzzDidNotWriteOrALink) {
  TempDir tmp;
  fs::create_directory(tmp / "mixed");
  put(tmp / "mixed" / "notes.txt", "mine");
  EXPECT_THROW(FreshFolder(tmp / "mixed", report_rules()), OutputPathError);
  // Names gridfuzz writes, but no marker: not gridfuzz's folder.
  fs::create_directory(tmp / "nomarker");
  put(tmp / "nomarker" / "report.md", "x");
  EXPECT_THROW(FreshFolder(tmp / "nomarker", report_rules()), OutputPathError);
  // An earlier folder with a link planted in it.
  {
    FreshFolder f(tmp / "planted", report_rules());
    fill(f, "x");
    f.commit();
  }
  put(tmp / "victim", "victim");
  fs::remove(tmp / "planted" / "report.md");
  fs::create_symlink(tmp / "victim", tmp / "planted" / "report.md");
  EXPECT_THROW(FreshFolder(tmp / "planted", report_rules()), OutputPathError);
  EXPECT_EQ(slurp(tmp / "victim"), "victim");
  fs::create_directory_symlink(tmp / "mixed", tmp / "link");
  EXPECT_THROW(FreshFolder(tmp / "link", report_rules()), OutputPathError);
  put(tmp / "file", "x");
  EXPECT_THROW(FreshFolder(tmp / "file", report_rules()), OutputPathError);
  EXPECT_THROW(FreshFolder(tmp.path / ".", report_rules()), OutputPathError);
  FreshFolder::Rules with_input = report_rules();
  with_input.inputs = {{"the CSV", tmp / "rep" / "in.csv"}};
  EXPECT_THROW(FreshFolder(tmp / "rep", with_input), OutputPathError);
  EXPECT_EQ(slurp(tmp / "mixed" / "notes.txt"), "mine");
  EXPECT_EQ(entries_in(tmp / "mixed"), 1u);
}

}  // namespace
}  // namespace gridfuzz
