#include "gridfuzz/engine/record_codec.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {
namespace {

class FieldWriter {
 public:
  void put(std::string_view name, std::string_view value) {
    out_.append(name).append(" ").append(std::to_string(value.size())).append("\n").append(value);
  }
  void put_uint(std::string_view name, std::uint64_t v) { put(name, std::to_string(v)); }
  void put_int(std::string_view name, std::int64_t v) { put(name, std::to_string(v)); }
  void put_bool(std::string_view name, bool v) { put(name, v ? "1" : "0"); }
  void put_double(std::string_view name, double v) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);  // shortest text that round-trips
    put(name, std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
  // Floats, each the shortest text that reads back to the same float, separated by one space.
  void put_floats(std::string_view name, const std::vector<float>& values) {
    std::string text;
    for (const float v : values) {
      char buf[32];
      const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
      if (!text.empty()) text += ' ';
      text.append(buf, end);
    }
    put(name, text);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class FieldReader {
 public:
  explicit FieldReader(std::string_view bytes) {
    while (!bytes.empty()) {
      const std::size_t space = bytes.find(' '), nl = bytes.find('\n');
      if (space == std::string_view::npos || nl == std::string_view::npos || space > nl)
        throw std::runtime_error("record: malformed field header");
      const std::string name(bytes.substr(0, space));
      const std::size_t len = number<std::size_t>(name, bytes.substr(space + 1, nl - space - 1));
      if (bytes.size() - nl - 1 < len) throw std::runtime_error("record: field '" + name + "' is cut short");
      if (!fields_.emplace(name, std::string(bytes.substr(nl + 1, len))).second)
        throw std::runtime_error("record: field '" + name + "' appears twice");
      bytes.remove_prefix(nl + 1 + len);
    }
  }
  bool has(const std::string& name) const { return fields_.contains(name); }
  const std::string& text(const std::string& name) const {
    const auto it = fields_.find(name);
    if (it == fields_.end()) throw std::runtime_error("record: field '" + name + "' is missing");
    return it->second;
  }
  template <class T>
  T get(const std::string& name) const { return number<T>(name, text(name)); }
  std::vector<float> get_floats(const std::string& name) const {
    std::vector<float> values;
    std::string_view rest = text(name);
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      values.push_back(number<float>(name, rest.substr(0, space)));
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      if (space != std::string_view::npos && rest.empty()) throw std::runtime_error("record: field '" + name + "' ends with a space");
    }
    return values;
  }
  bool get_bool(const std::string& name) const { return get<int>(name) != 0; }

 private:
  template <class T>
  static T number(const std::string& name, std::string_view text) {
    T v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
      throw std::runtime_error("record: field '" + name + "' is not a number: '" + std::string(text) + "'");
    return v;
  }
  std::map<std::string, std::string> fields_;
};

// A field holding one word of the vocabulary, read with its parse.
template <class Parse>
auto word(const FieldReader& f, const std::string& name, Parse parse) {
  const auto value = parse(f.text(name));
  if (!value) throw std::runtime_error("record: field '" + name + "' is no " + name + ": '" + f.text(name) + "'");
  return *value;
}

u128 parse_u128(const std::string& name, const std::string& text) {
  if (text.empty()) throw std::runtime_error("record: field '" + name + "' is empty");
  u128 v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') throw std::runtime_error("record: field '" + name + "' is not a number: '" + text + "'");
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

}  // namespace

std::string encode_record(const CaseRecord& r) {
  FieldWriter w;
  w.put("case", r.the_case.replay());
  w.put("run_id", r.context.run_id);
  w.put("device", r.context.device);
  w.put("cc", r.context.cc);
  w.put("driver", r.context.driver);
  w.put("driver_release", r.context.driver_release);
  w.put("commit", r.context.commit);
  if (r.context.device_index) w.put_int("device_index", *r.context.device_index);
  w.put_uint("launches", r.plan.launches);
  if (const auto& l = r.plan.launch) {
    for (const auto& [name, v] : {std::pair{"grid_x", l->grid.x}, {"grid_y", l->grid.y}, {"grid_z", l->grid.z},
                                  {"block_x", l->block.x}, {"block_y", l->block.y}, {"block_z", l->block.z},
                                  {"smem", l->smem_bytes}})
      w.put_uint(name, v);
    w.put_int("regs", l->regs);
  }
  if (r.plan.max_index) w.put("max_index", to_string_u128(*r.plan.max_index));
  if (r.plan.index_type) w.put("index_type", to_string(*r.plan.index_type));
  // The vocabulary's values by their parts (the kinds' words, the free text as it is): a reason
  // or name the CSV's strict parse would refuse still crosses the pipe unchanged.
  w.put("index_wrap", to_string(r.plan.index_wrap.kind));
  w.put("index_wrap_index", r.plan.index_wrap.index);
  w.put("predicted", to_string(r.plan.predicted.kind));
  w.put("predicted_rule", to_string(r.plan.predicted.rule));
  w.put("predicted_what", r.plan.predicted.what);
  w.put("observed", to_string(r.observed.kind));
  w.put("observed_reason", r.observed.reason);
  w.put("oracle_kind", to_string(r.oracle.kind));
  w.put("oracle_where", r.oracle.where);
  w.put_bool("oracle_exact", r.oracle.exact);
  w.put_uint("split_mismatches", r.oracle.split_mismatches);
  w.put_double("max_abs_err", r.oracle.max_abs_err);
  w.put_uint("unwritten", r.oracle.unwritten);
  w.put_uint("cpu_ok", r.oracle.cpu_ok);
  w.put_uint("cpu_total", r.oracle.cpu_total);
  w.put_bool("oracle_split_reference", r.oracle.split_reference);
  if (r.oracle.self_differ) w.put_uint("self_differ", *r.oracle.self_differ);  // absent: no self-check
  if (r.oracle.reference_again) w.put_uint("reference_again", *r.oracle.reference_again);  // absent: not made
  w.put("verdict", r.verdict.to_string());
  w.put("detail", r.detail);
  w.put("finding", r.finding);
  w.put_int("started_unix_ms", r.started_unix_ms);
  const Timing& t = r.timing;
  w.put_double("median_ms", t.median_ms);
  w.put_double("min_ms", t.min_ms);
  w.put_double("max_ms", t.max_ms);
  w.put_int("samples", t.samples);
  w.put_double("gbps", t.gbps);
  w.put_double("kernel_median_ms", t.kernel_median_ms);
  w.put_double("kernel_min_ms", t.kernel_min_ms);
  w.put_double("kernel_max_ms", t.kernel_max_ms);
  w.put_int("kernel_samples", t.kernel_samples);
  w.put_int("kernels_per_call", t.kernels_per_call);
  w.put_floats("samples_ms", t.samples_ms);
  const PhaseTimes& ph = r.phases;
  for (const auto& [name, v] : {std::pair{"plan_ms", ph.plan_ms}, {"alloc_ms", ph.alloc_ms}, {"fill_ms", ph.fill_ms},
                                {"call_ms", ph.call_ms}, {"reference_ms", ph.reference_ms}, {"compare_ms", ph.compare_ms},
                                {"cpu_ms", ph.cpu_ms}, {"timing_ms", ph.timing_ms}, {"case_ms", ph.case_ms},
                                {"worker_ms", ph.worker_ms}})
    w.put_double(name, v);
  w.put_bool("context_lost", r.context_lost);
  return w.take();
}

CaseRecord decode_record(std::string_view bytes) {
  const FieldReader f(bytes);
  CaseRecord r;
  try {
    r.the_case = Case::parse_replay(f.text("case"));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("record: field 'case': ") + e.what());
  }
  r.context = {f.text("run_id"), f.text("device"), f.text("cc"), f.text("driver"), f.text("commit"), std::nullopt,
               f.text("driver_release")};
  if (f.has("device_index")) r.context.device_index = f.get<int>("device_index");
  r.plan.launches = f.get<std::size_t>("launches");
  if (f.has("grid_x"))
    r.plan.launch = LaunchSummary{{f.get<std::uint64_t>("grid_x"), f.get<std::uint64_t>("grid_y"), f.get<std::uint64_t>("grid_z")},
                                  {f.get<std::uint64_t>("block_x"), f.get<std::uint64_t>("block_y"), f.get<std::uint64_t>("block_z")},
                                  f.get<std::uint64_t>("smem"), f.get<int>("regs")};
  if (f.has("max_index")) r.plan.max_index = parse_u128("max_index", f.text("max_index"));
  if (f.has("index_type")) {
    r.plan.index_type = parse_index_type(f.text("index_type"));
    if (!r.plan.index_type) throw std::runtime_error("record: field 'index_type' is no index type: " + f.text("index_type"));
  }
  r.plan.index_wrap = {word(f, "index_wrap", parse_index_wrap_kind), f.text("index_wrap_index")};
  r.plan.predicted = {word(f, "predicted", parse_predicted_kind),
                      word(f, "predicted_rule", [](std::string_view t) { return parse_rule(std::string(t)); }),
                      f.text("predicted_what")};
  r.observed = {word(f, "observed", parse_observed_kind), f.text("observed_reason")};
  r.oracle = {word(f, "oracle_kind", parse_oracle_kind),    f.text("oracle_where"),     f.get_bool("oracle_exact"),
              f.get<std::uint64_t>("split_mismatches"),    f.get<double>("max_abs_err"), f.get<std::uint64_t>("unwritten"),
              f.get<std::uint64_t>("cpu_ok"),              f.get<std::uint64_t>("cpu_total"),
              f.get_bool("oracle_split_reference")};
  if (f.has("self_differ")) r.oracle.self_differ = f.get<std::uint64_t>("self_differ");
  if (f.has("reference_again")) r.oracle.reference_again = f.get<std::uint64_t>("reference_again");
  const auto verdict = Verdict::parse(f.text("verdict"));
  if (!verdict) throw std::runtime_error("record: field 'verdict' is no verdict: " + f.text("verdict"));
  r.verdict = *verdict;
  r.detail = f.text("detail");
  r.finding = f.text("finding");
  r.started_unix_ms = f.get<std::int64_t>("started_unix_ms");
  r.timing = {f.get<double>("median_ms"),        f.get<double>("min_ms"),        f.get<double>("max_ms"),
              f.get<int>("samples"),             f.get<double>("gbps"),          f.get<double>("kernel_median_ms"),
              f.get<double>("kernel_min_ms"),    f.get<double>("kernel_max_ms"), f.get<int>("kernel_samples"),
              f.get<int>("kernels_per_call"),   f.get_floats("samples_ms")};
  if (r.timing.samples_ms.size() != static_cast<std::size_t>(std::max(r.timing.samples, 0)) && !r.timing.samples_ms.empty())
    throw std::runtime_error("record: field 'samples_ms' holds " + std::to_string(r.timing.samples_ms.size()) +
                             " samples, 'samples' says " + std::to_string(r.timing.samples));
  r.phases = {f.get<double>("plan_ms"),    f.get<double>("alloc_ms"),   f.get<double>("fill_ms"),
              f.get<double>("call_ms"),    f.get<double>("reference_ms"), f.get<double>("compare_ms"),
              f.get<double>("cpu_ms"),     f.get<double>("timing_ms"),  f.get<double>("case_ms"),
              f.get<double>("worker_ms")};
  r.context_lost = f.get_bool("context_lost");
  return r;
}

}  // namespace gridfuzz
