#include "gridfuzz/reports/bench_json.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

namespace gridfuzz::reports {
namespace {

using nlohmann::json;

std::optional<double> unit_in_ms(std::string_view unit) {
  if (unit == "ns") return 1e-6;
  if (unit == "us") return 1e-3;
  if (unit == "ms") return 1.0;
  if (unit == "s") return 1e3;
  return std::nullopt;
}

std::string text_of(const json& value, std::string_view key) {
  const auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::vector<BenchmarkRuns> parse_benchmark_json(std::string_view text, const std::string& source) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw BenchJsonError(source + ": not JSON");
  const auto list = doc.is_object() ? doc.find("benchmarks") : doc.end();
  if (!doc.is_object() || list == doc.end() || !list->is_array())
    throw BenchJsonError(source + ": not Google Benchmark JSON (no \"benchmarks\" array; run the bench with "
                                  "--benchmark_format=json)");
  std::vector<BenchmarkRuns> runs;
  std::map<std::string, std::size_t> index;
  std::size_t entry_no = 0;
  for (const json& entry : *list) {
    const std::string where = source + ": benchmarks[" + std::to_string(entry_no++) + "]";
    if (!entry.is_object()) throw BenchJsonError(where + " is not an object");
    const std::string run_type = text_of(entry, "run_type");
    if (!run_type.empty() && run_type != "iteration") continue;  // an aggregate: a summary of the others
    if (entry.value("error_occurred", false)) continue;           // no time to compare
    std::string name = text_of(entry, "run_name");
    if (name.empty()) name = text_of(entry, "name");
    if (name.empty()) throw BenchJsonError(where + " has no name");
    const auto real = entry.find("real_time");
    if (real == entry.end() || !real->is_number()) throw BenchJsonError(where + " (" + name + ") has no real_time");
    const std::string unit = text_of(entry, "time_unit");
    const auto scale = unit_in_ms(unit.empty() ? "ns" : unit);  // Google Benchmark's default unit
    if (!scale) throw BenchJsonError(where + " (" + name + "): unknown time_unit '" + unit + "'");
    const double ms = real->get<double>() * *scale;
    if (!std::isfinite(ms) || ms < 0) throw BenchJsonError(where + " (" + name + "): real_time is not a time");
    const auto [it, added] = index.emplace(name, runs.size());
    if (added) runs.push_back({name, {}});
    runs[it->second].real_ms.push_back(ms);
  }
  if (runs.empty()) throw BenchJsonError(source + ": no benchmark repetition (only aggregates or errors)");
  return runs;
}

std::vector<BenchmarkRuns> read_benchmark_json(const std::filesystem::path& path) {
  constexpr std::uintmax_t kMaxBytes = std::uintmax_t{64} << 20;  // a bench file is kilobytes
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw BenchJsonError(path.string() + ": cannot read: " + ec.message());
  if (size > kMaxBytes) throw BenchJsonError(path.string() + ": over 64 MiB, not a benchmark's JSON");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BenchJsonError(path.string() + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw BenchJsonError(path.string() + ": read error");
  return parse_benchmark_json(text.str(), path.string());
}

}  // namespace gridfuzz::reports
