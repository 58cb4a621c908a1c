#pragma once
// Writing and running gnuplot scripts. Every script finds its data beside itself: it takes its
// own folder from ARG0 (the script's path as gnuplot was given it), so `gnuplot plots/X.gp`,
// `cd plots && gnuplot X.gp` and `gnuplot /abs/plots/X.gp` all work, and the report folder can be
// moved (a CI artifact). Only when ARG0 is empty (the script piped into gnuplot) does it use the
// folder's absolute path written when the script was made.
#include <filesystem>
#include <optional>
#include <string>

namespace gridfuzz::reports {

// The first lines of a script in `dir`: sets the gnuplot variable `here` to the script's folder
// (with a trailing '/', or "" for the current folder).
std::string gnuplot_prologue(const std::filesystem::path& dir);

// A gnuplot string expression for a file beside the script: here.'name'.
std::string beside_script(const std::string& file_name);

// Draws `body` (the commands of one picture, multiplot or not) twice: to stem.png (pngcairo) and
// stem.svg, both beside the script, at width x height pixels.
std::string png_and_svg(const std::string& stem, int width, int height, const std::string& body);

// The program's full path from PATH (or the name itself when it holds a '/' and is executable).
std::optional<std::filesystem::path> find_program(const std::string& name);

// Runs `program script` in the current folder, its output appended to `log`; true when it exits 0.
bool run_gnuplot(const std::filesystem::path& program, const std::filesystem::path& script,
                 const std::filesystem::path& log);

}  // namespace gridfuzz::reports
