#include "gridfuzz/reports/row_facts.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports {

RowFacts RowFacts::of(const RowSource& rows, KnownRaces races) {
  RowFacts facts(std::move(races));
  rows.visit([&](std::size_t, const CsvRow& row) { facts.add(row); });
  return facts;
}

std::uint32_t RowFacts::intern(std::string_view text) {
  const std::uint32_t id = texts_.intern(text);
  if (id == integers_.size()) {
    const auto value = parse_int(text);
    integers_.push_back(value.value_or(0));
    is_integer_.push_back(value.has_value());
  }
  return id;
}

std::optional<std::int64_t> RowFacts::integer(std::uint32_t id) const {
  if (!is_integer_[id]) return std::nullopt;
  return integers_[id];
}

void RowFacts::add(const CsvRow& row) {
  if (values_.size() > std::numeric_limits<std::uint32_t>::max() - 1024)
    throw std::length_error("more axis values than a report keeps (2^32)");
  Row facts;
  const Group g{intern(row.view("kernel")), intern(row.view("variant")), intern(row.view("device"))};
  const auto [group, added] =
      group_ids_.try_emplace({g.kernel, g.variant, g.device}, static_cast<std::uint32_t>(groups_.size()));
  if (added) groups_.push_back(g);
  facts.group = group->second;

  std::vector<std::uint32_t> names;
  facts.values = static_cast<std::uint32_t>(values_.size());
  for (const auto& [name, value] : case_axes(row)) {
    names.push_back(intern(name));
    values_.push_back(intern(value));
  }
  const auto [signature, new_signature] =
      signature_ids_.try_emplace(names, static_cast<std::uint32_t>(signatures_.size()));
  if (new_signature) signatures_.push_back(std::move(names));
  facts.signature = signature->second;

  if (const auto race = races_.race_of(row)) facts.race = intern(*race) + 1;
  facts.predicted_fails = predicted_fails(row);
  const std::optional<bool> observed = observed_fails(row);
  facts.observed = !observed ? 0 : *observed ? 2 : 1;
  const PointOutcome outcome = point_outcome(row);
  facts.shown = static_cast<std::uint8_t>(outcome.outcome);
  facts.predicted_only = outcome.predicted_only;
  if (const auto timing = timing_of(row))
    timings_.push_back({static_cast<std::uint32_t>(rows_.size()), timing->median_ms, timing->min_ms, timing->max_ms});
  rows_.push_back(facts);
}

std::map<std::pair<std::string, std::string>, std::vector<std::string>> RowFacts::variants_in_order() const {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> out;
  std::vector<bool> seen(groups_.size());
  for (const Row& row : rows_) {
    if (seen[row.group]) continue;
    seen[row.group] = true;
    const Group& g = groups_[row.group];
    auto& variants = out[{std::string(text(g.kernel)), std::string(text(g.device))}];
    const std::string variant(text(g.variant));
    if (std::find(variants.begin(), variants.end(), variant) == variants.end()) variants.push_back(variant);
  }
  return out;
}

std::map<std::string, std::string> RowFacts::axes(const Row& row) const {
  std::map<std::string, std::string> out;
  const auto& names = signatures_[row.signature];
  for (std::size_t i = 0; i < names.size(); ++i)
    out.emplace(std::string(text(names[i])), std::string(text(value(row, i))));
  return out;
}

}  // namespace gridfuzz::reports
