#include "gridfuzz/watch/launch_log.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

namespace gridfuzz::watch {
namespace {

constexpr std::string_view kUnknown = "?";

// One field of a line: no space, no control character.
std::string field_text(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) c = '?';
  return out;
}

std::string dim3_text(bool known, const Dim3& d) { return known ? to_string(d) : std::string(kUnknown); }

const char* api_text(LaunchApi api) { return api == LaunchApi::driver ? "driver" : "runtime"; }

std::vector<std::string_view> split_spaces(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i <= line.size()) {
    const std::size_t j = std::min(line.find(' ', i), line.size());
    out.push_back(line.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

template <class T>
std::optional<T> number(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<Dim3> dim3_of(std::string_view s) {
  Dim3 d;
  std::uint64_t* parts[] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = i < 2 ? s.find(',') : s.size();
    if (comma == std::string_view::npos) return std::nullopt;
    const auto v = number<std::uint64_t>(s.substr(0, comma));
    if (!v) return std::nullopt;
    *parts[i] = *v;
    s = i < 2 ? s.substr(comma + 1) : std::string_view{};
  }
  return d;
}

// "key=value" with the key expected at this place of the line: the value, or nullopt.
std::optional<std::string_view> value_of(std::string_view field, std::string_view key) {
  if (field.size() <= key.size() || field.substr(0, key.size()) != key || field[key.size()] != '=') return std::nullopt;
  return field.substr(key.size() + 1);
}

}  // namespace

std::string WatchedLaunch::key() const {
  WatchedLaunch k = *this;
  k.count = 0;
  return format_launch_line(k);
}

std::string format_header_line(std::int64_t pid) { return "# gridfuzz-watch 1 pid=" + std::to_string(pid) + "\n"; }

std::string format_launch_line(const WatchedLaunch& l) {
  return "launch pid=" + std::to_string(l.pid) + " n=" + std::to_string(l.count) + " api=" + api_text(l.api) +
         " result=" + std::to_string(l.result) + " error=" + (l.error.empty() ? "-" : field_text(l.error)) +
         " grid=" + dim3_text(l.geometry_known, l.grid) + " block=" + dim3_text(l.geometry_known, l.block) +
         " dsmem=" + std::to_string(l.dynamic_smem_bytes) + " ssmem=" + std::to_string(l.static_smem_bytes) +
         " regs=" + std::to_string(l.regs) + " maxdsmem=" + std::to_string(l.max_dynamic_smem_bytes) +
         " kernel=" + (l.symbol.empty() ? std::string(kUnknown) : field_text(l.symbol)) + "\n";
}

std::string format_note_line(std::int64_t pid, std::string_view text) {
  std::string one_line(text);
  for (char& c : one_line)
    if (c == '\n' || c == '\r') c = ' ';
  return "note pid=" + std::to_string(pid) + " " + one_line + "\n";
}

std::string format_dropped_line(std::int64_t pid, std::uint64_t count) {
  return "dropped pid=" + std::to_string(pid) + " n=" + std::to_string(count) + "\n";
}

ParsedLaunchLine parse_launch_line(std::string_view line) {
  static constexpr std::string_view kKeys[] = {"pid",  "n",    "api",   "result", "error",    "grid",
                                               "block", "dsmem", "ssmem", "regs",   "maxdsmem", "kernel"};
  const std::vector<std::string_view> fields = split_spaces(line);
  if (fields.empty() || fields[0] != "launch") return {std::nullopt, "not a launch line"};
  if (fields.size() != 1 + std::size(kKeys))
    return {std::nullopt, "a launch line has " + std::to_string(std::size(kKeys)) + " fields, this one " +
                              std::to_string(fields.size() - 1)};
  std::string_view v[std::size(kKeys)];
  for (std::size_t i = 0; i < std::size(kKeys); ++i) {
    const auto value = value_of(fields[i + 1], kKeys[i]);
    if (!value) return {std::nullopt, "field " + std::to_string(i + 1) + " should be " + std::string(kKeys[i]) + "=..."};
    v[i] = *value;
  }
  const auto bad = [&](std::size_t i) {
    return ParsedLaunchLine{std::nullopt, "bad " + std::string(kKeys[i]) + " '" + std::string(v[i]) + "'"};
  };
  WatchedLaunch l;
  const auto pid = number<std::int64_t>(v[0]);
  if (!pid) return bad(0);
  l.pid = *pid;
  const auto count = number<std::uint64_t>(v[1]);
  if (!count || *count == 0) return bad(1);
  l.count = *count;
  if (v[2] == "driver") l.api = LaunchApi::driver;
  else if (v[2] == "runtime") l.api = LaunchApi::runtime;
  else return bad(2);
  const auto result = number<int>(v[3]);
  if (!result) return bad(3);
  l.result = *result;
  if (v[4] != "-") l.error = std::string(v[4]);
  if (l.accepted() != l.error.empty()) return {std::nullopt, "result and error disagree"};
  l.geometry_known = v[5] != kUnknown;
  if ((v[6] != kUnknown) != l.geometry_known) return {std::nullopt, "grid and block: both known or both '?'"};
  if (l.geometry_known) {
    const auto grid = dim3_of(v[5]);
    if (!grid) return bad(5);
    const auto block = dim3_of(v[6]);
    if (!block) return bad(6);
    l.grid = *grid;
    l.block = *block;
  } else {
    l.grid = l.block = Dim3{0, 0, 0};
  }
  const auto dsmem = number<std::uint64_t>(v[7]);
  if (!dsmem) return bad(7);
  l.dynamic_smem_bytes = *dsmem;
  const auto ssmem = number<std::uint64_t>(v[8]);
  if (!ssmem) return bad(8);
  l.static_smem_bytes = *ssmem;
  const auto regs = number<int>(v[9]);
  if (!regs || *regs < 0) return bad(9);
  l.regs = *regs;
  const auto maxdsmem = number<std::uint64_t>(v[10]);
  if (!maxdsmem) return bad(10);
  l.max_dynamic_smem_bytes = *maxdsmem;
  if (v[11] != kUnknown) l.symbol = std::string(v[11]);
  return {l, ""};
}

LaunchLog read_launch_log(std::string_view text) {
  LaunchLog log;
  std::map<std::pair<std::int64_t, std::string>, std::size_t> index;  // (pid, key) -> launches[i]
  std::size_t line_no = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    ++line_no;
    const std::size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    const auto problem = [&](const std::string& why) {
      log.problems.push_back("line " + std::to_string(line_no) + ": " + why);
    };
    if (end == std::string_view::npos) {
      problem("incomplete (the program stopped while writing it)");
      break;
    }
    if (line.empty()) continue;
    if (line.starts_with("# gridfuzz-watch ")) {
      const std::size_t p = line.find(" pid=");
      const auto pid = p == std::string_view::npos ? std::nullopt : number<std::int64_t>(line.substr(p + 5));
      if (!pid) problem("a header line without its pid");
      else log.processes.push_back(*pid);
      continue;
    }
    if (line.starts_with("#")) continue;
    if (line.starts_with("note pid=")) {
      const std::string_view rest = line.substr(9);
      const std::size_t sp = rest.find(' ');
      log.notes.push_back("pid " + std::string(rest.substr(0, sp)) + ": " +
                          std::string(sp == std::string_view::npos ? "" : rest.substr(sp + 1)));
      continue;
    }
    if (line.starts_with("dropped ")) {
      const std::vector<std::string_view> f = split_spaces(line);
      const auto n = f.size() == 3 && f[2].starts_with("n=") ? number<std::uint64_t>(f[2].substr(2)) : std::nullopt;
      if (!n) problem("a dropped line is 'dropped pid=<pid> n=<count>'");
      else log.dropped += *n;
      continue;
    }
    ParsedLaunchLine parsed = parse_launch_line(line);
    if (!parsed.launch) {
      problem(parsed.problem);
      continue;
    }
    WatchedLaunch& l = *parsed.launch;
    const auto [it, inserted] = index.try_emplace({l.pid, l.key()}, log.launches.size());
    if (inserted) log.launches.push_back(std::move(l));
    else log.launches[it->second].count = std::max(log.launches[it->second].count, l.count);
  }
  return log;
}

}  // namespace gridfuzz::watch
