#pragma once
// Pieces shared by the report's pictures (plots.cpp draws them): what a drawing is, how outcomes
// look, and the ordered value axis that keeps +-2 points apart.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/reports/axis_lines.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/point_outcome.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/two_axis_table.hpp"

namespace gridfuzz::reports::detail {

struct Drawing {
  Plot plot;
  std::filesystem::path script;
  std::string text;  // the script's text: what gnuplot reads from a pipe
};

// A file name part: letters, digits, '.', '_' kept, everything else '-'.
std::string file_slug(const std::string& text);

// Writes text to a new file at path (core/output_file.hpp: created exclusively, never through a
// link); false when it cannot.
bool write_text_file(const std::filesystem::path& path, const std::string& text);

// How an outcome is drawn: a gnuplot point type (filled when the case ran, hollow when only
// predicted) and a colour.
struct OutcomeStyle {
  const char* legend;
  int filled_pt, hollow_pt;
  const char* colour;
};
const OutcomeStyle& style_of(Outcome outcome);
constexpr const char* kThroughOtherColour = "#a0a0a0";

// Values of an axis placed in order, one slot each, with a wider gap between groups of close
// values (8190..8194 apart from 64 and 381299): every point visible, the order kept, the
// distances not to scale. `xtics` is the gnuplot tic list labelling each slot with its value.
struct ValueSlots {
  std::map<std::int64_t, double> at;
  double last = 0;
  std::string xtics;
};
ValueSlots value_slots(const std::set<std::int64_t>& values);

// Axes in the order people read them: tokens, top_k, experts, vocab, rows, cols, then the rest.
int axis_rank(const std::string& axis);

// Each picture's files go to out_dir/plots; its script's fallback folder (gnuplot_prologue) is
// shown_dir/plots, where the folder will be once in place.

// The per-kernel summary: one panel per axis with a boundary line, one row per variant (`variants`
// in the order the rows name them); `lines` are the kernel x device's (LineChoice::beside_two_points).
std::optional<Drawing> summary_picture(const std::string& kernel, const std::string& device,
                                       const std::vector<std::string>& variants,
                                       const std::vector<const AxisLine*>& lines, const std::filesystem::path& out_dir,
                                       const std::filesystem::path& shown_dir);

// Time by tokens (or the axis with most timed values) for every variant of the kernels of one
// operation (gguf.moe_vec and vllm.moe_vec), with a ratio panel. `timings`: the operation x
// device's timed rows (indexes into facts.timings()), in order.
std::optional<Drawing> timing_picture(const std::string& operation, const std::string& device, const RowFacts& facts,
                                      const std::vector<std::uint32_t>& timings, const std::filesystem::path& out_dir,
                                      const std::filesystem::path& shown_dir);

// First failing value of one axis for each value of the other, variants as series.
std::optional<Drawing> two_axis_picture(const TwoAxisTable& table, const std::filesystem::path& out_dir,
                                        const std::filesystem::path& shown_dir);

}  // namespace gridfuzz::reports::detail
