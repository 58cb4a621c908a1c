#include "gridfuzz/app/model_option.hpp"

#include <algorithm>

#include "gridfuzz/app/parse.hpp"

namespace gridfuzz::app {

std::vector<const ModelProfile*> parse_models(const std::string& text) {
  std::vector<const ModelProfile*> out;
  if (text == "none") return out;
  if (text == "all") {
    for (const ModelProfile& p : model_profiles()) out.push_back(&p);
    return out;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const ModelProfile* p = find_model_profile(name);
    if (!p) {
      std::string known;
      for (const ModelProfile& m : model_profiles()) known += (known.empty() ? "" : ", ") + m.name;
      throw UsageError("--model: no profile '" + name + "' (known: " + known + "; see `gridfuzz models`)");
    }
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<ModelStart> model_starts(const Kernel& kernel, const std::vector<const ModelProfile*>& profiles) {
  const auto axes = kernel.axes();
  std::vector<ModelStart> out;
  std::string refused;
  for (const ModelProfile* profile : profiles)
    for (const ProfileShape& shape : shapes_for_axes(*profile, axes)) {
      const Params p = apply_shape(shape, Params::defaults(axes), axes);
      std::optional<std::string> why = Params::validate(p, axes);
      if (!why) why = kernel.check(p);
      if (why) {
        refused += "; " + shape.label() + ": " + *why;
        continue;
      }
      out.push_back({shape.label(), p});
    }
  if (out.empty())
    throw UsageError("--model: " + kernel.name() +
                     " takes no shape of these profiles (profiles set the axes vocab, cols, rows, experts, top_k, "
                     "proj by name" +
                     refused + ")");
  return out;
}

}  // namespace gridfuzz::app
