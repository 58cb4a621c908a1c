#include "gridfuzz/reports/two_axis_table.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "gridfuzz/reports/axis_lines.hpp"
#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/case_outcome.hpp"

namespace gridfuzz::reports {
namespace {

// Why a row fails, in a token: the model's refusal or wrap, else what the device did.
std::string short_rule(const CsvRow& row) {
  const RowOutcome& o = row.outcome();
  if (!o.predicted_accept()) return row.get("predicted");
  if (o.wrap_predicted()) return row.get("index_wrap");
  return observed_text(row);
}

TwoAxisCell make_cell(const AxisLine& line, const RowSource& rows) {
  TwoAxisCell cell;
  const BoundarySide predicted = predicted_side(line.points);
  const std::optional<BoundarySide> observed = observed_side(line.points);
  const BoundarySide& side = observed ? *observed : predicted;
  cell.observed = observed.has_value();
  cell.first_fail = side.first_fail;
  cell.last_pass = side.last_pass;
  cell.min_tested = line.points.begin()->first;
  cell.max_tested = side.max_judged;
  cell.fails_from_start = side.first_fail && !side.last_pass;
  cell.model_differs = observed && predicted.first_fail != observed->first_fail;
  cell.model_first_fail = predicted.first_fail;
  if (side.first_fail_row) cell.rule = short_rule(rows.at(*side.first_fail_row));
  return cell;
}

std::string without(const std::string& along, const std::string& axis) {
  std::string out;
  std::size_t start = 0;
  while (start <= along.size()) {
    const std::size_t end = std::min(along.find(',', start), along.size());
    const std::string part = along.substr(start, end - start);
    if (!part.empty() && part.rfind(axis + "=", 0) != 0) out += (out.empty() ? "" : ",") + part;
    start = end + 1;
  }
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& two_axis_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"tokens", "vocab"}, {"tokens", "top_k"}, {"tokens", "experts"}};
  return pairs;
}

std::vector<TwoAxisTable> two_axis_tables(const RowFacts& facts, const RowSource& rows) {
  // Variants in the order the rows name them (the sweep writes them in plan order), and the
  // values of each key axis in the rows.
  const auto variant_order = facts.variants_in_order();
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::set<std::int64_t>> key_values;  // kernel, device, axis
  std::vector<std::uint32_t> key_axes;
  for (const auto& [axis, key_axis] : two_axis_pairs())
    if (const auto id = facts.find_text(key_axis)) key_axes.push_back(*id);
  for (std::size_t position = 0; position < facts.size(); ++position) {
    const RowFacts::Row& row = facts.row(position);
    const RowFacts::Group& g = facts.group(row.group);
    const auto& names = facts.signature(row.signature);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (std::find(key_axes.begin(), key_axes.end(), names[i]) != key_axes.end())
        if (const auto v = facts.integer(facts.value(row, i))) key_values[{g.kernel, g.device, names[i]}].insert(*v);
  }
  const auto values_of = [&](const std::pair<std::string, std::string>& kd, const std::string& axis) {
    const auto kernel = facts.find_text(kd.first), device = facts.find_text(kd.second), name = facts.find_text(axis);
    static const std::set<std::int64_t> none;
    if (!kernel || !device || !name) return none;
    const auto it = key_values.find({*kernel, *device, *name});
    return it == key_values.end() ? none : it->second;
  };
  const std::vector<AxisLine> lines = axis_lines(facts, LineChoice::beside_two_points);

  std::vector<TwoAxisTable> tables;
  for (const auto& [kd, variants] : variant_order) {
    for (const auto& [axis, key_axis] : two_axis_pairs()) {
      // (key value, the other fixed axes) -> variant -> line
      std::map<std::pair<std::int64_t, std::string>, std::map<std::string, const AxisLine*>> found;
      std::set<std::pair<std::int64_t, std::string>> real;  // entries with a line of >= 2 points
      for (const AxisLine& line : lines) {
        if (line.kernel != kd.first || line.device != kd.second || line.axis != axis) continue;
        const auto key = line.fixed.find(key_axis);
        if (key == line.fixed.end()) continue;
        const auto key_value = parse_int(key->second);
        if (!key_value) continue;
        const std::pair<std::int64_t, std::string> id{*key_value, without(line.along, key_axis)};
        found[id][line.variant] = &line;
        if (line.points.size() >= 2) real.insert(id);
      }
      if (real.empty()) continue;
      TwoAxisTable table;
      table.kernel = kd.first;
      table.device = kd.second;
      table.axis = axis;
      table.key_axis = key_axis;
      table.variants = variants;
      // The fixed axes that differ between entries name them; those equal everywhere are noise.
      std::map<std::string, std::set<std::string>> other_values;
      for (const auto& id : real)
        for (const auto& [name, value] : found[id].begin()->second->fixed)
          if (name != key_axis) other_values[name].insert(value);
      std::set<std::int64_t> covered;
      for (const auto& id : real) {
        TwoAxisEntry entry;
        entry.key_value = id.first;
        covered.insert(id.first);
        for (const auto& [name, value] : found[id].begin()->second->fixed)
          if (name != key_axis && other_values[name].size() > 1)
            entry.others += (entry.others.empty() ? "" : ",") + name + "=" + value;
        for (const auto& [variant, line] : found[id]) entry.cells[variant] = make_cell(*line, rows);
        table.entries.push_back(std::move(entry));
      }
      for (std::int64_t v : values_of(kd, key_axis))
        if (!covered.count(v)) table.values_without_line.push_back(v);
      tables.push_back(std::move(table));
    }
  }
  return tables;
}

std::vector<TwoAxisTable> two_axis_tables(const std::vector<CsvRow>& rows) {
  const RowVector source(rows);
  return two_axis_tables(RowFacts::of(source), source);
}

std::string cell_text(const TwoAxisCell& cell) {
  std::string text;
  if (!cell.first_fail)
    text = "no failure up to " + std::to_string(cell.max_tested);
  else if (cell.fails_from_start)
    text = "all fail from " + std::to_string(*cell.first_fail);
  else {
    text = std::to_string(*cell.first_fail);
    if (cell.last_pass && *cell.last_pass + 1 != *cell.first_fail)
      text += " (last pass " + std::to_string(*cell.last_pass) + ")";
  }
  if (!cell.rule.empty()) text += " " + cell.rule;
  if (!cell.observed) text += " (model)";
  if (cell.model_differs)
    text += " (model: " + (cell.model_first_fail ? std::to_string(*cell.model_first_fail) : std::string("none")) + ")";
  return text;
}

}  // namespace gridfuzz::reports
