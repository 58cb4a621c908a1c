#pragma once
// Writing and running gnuplot scripts. Every script finds its data beside itself: it takes its
// own folder from ARG0 (the script's path as gnuplot was given it), so `gnuplot plots/X.gp`,
// `cd plots && gnuplot X.gp` and `gnuplot /abs/plots/X.gp` all work, and the report folder can be
// moved (a CI artifact). When ARG0 is empty (the script piped into gnuplot) it uses the folder's
// absolute path written when the script was made, unless the gnuplot variable gf_here names
// another: gridfuzz itself pipes each script into gnuplot with gf_here set to the folder it is
// drawn in (run_gnuplot), so gnuplot is never given a path to a script someone could swap.
#include <filesystem>
#include <optional>
#include <string>

namespace gridfuzz::reports {

// The first lines of a script in `dir`: sets the gnuplot variable `here` to the script's folder
// (with a trailing '/', or "" for the current folder): gf_here when it is defined, else ARG0's
// folder, else `dir`.
std::string gnuplot_prologue(const std::filesystem::path& dir);

// A gnuplot string expression for a file beside the script: here.'name'.
std::string beside_script(const std::string& file_name);

// Draws `body` (the commands of one picture, multiplot or not) twice: to stem.png (pngcairo) and
// stem.svg, both beside the script, at width x height pixels.
std::string png_and_svg(const std::string& stem, int width, int height, const std::string& body);

// The program's full path from PATH (or the name itself when it holds a '/' and is executable).
std::optional<std::filesystem::path> find_program(const std::string& name);

// Runs `program` in the current folder with `script` on its standard input (a pipe: no path to
// the script is given to it), gf_here set to `here` (the folder the script's files are in), its
// output and errors written to the open descriptor `log_fd`; true when it exits 0.
bool run_gnuplot(const std::filesystem::path& program, const std::string& script, const std::filesystem::path& here,
                 int log_fd);

}  // namespace gridfuzz::reports
