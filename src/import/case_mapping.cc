#include "import/case_mapping.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>

#include "cases/input_generator.h"
#include "validation/json_integers.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using Dims = std::vector<int64_t>;

// Case names allow letters, digits, '_', '.', '-'.
std::string SafeName(const std::string& text) {
  std::string name;
  for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ? c : '_';
  return name.empty() ? "case" : name;
}

class Mapping {
 public:
  explicit Mapping(const SourceCase& source) : source_(source) {}

  // ST CSV rows list inputs by position in the kernel's prototype; ATK cases name them.
  void NameInputsByPosition(const std::vector<std::string>& names) {
    if (source_.format != "ST CSV") return;
    if (source_.inputs.size() != names.size()) {
      std::string list;
      for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
      throw NotExpressible("input_shapes", "kernel " + source_.op + " takes " + std::to_string(names.size()) +
                                               " inputs (" + list + "), the row gives " +
                                               std::to_string(source_.inputs.size()));
    }
    for (size_t i = 0; i < names.size(); ++i) source_.inputs[i].name = names[i];
  }

  const SourceTensor& Input(const std::vector<std::string>& names) const {
    if (const SourceTensor* tensor = OptionalInput(names)) return *tensor;
    throw NotExpressible(source_.format == "ST CSV" ? "input_shapes" : "inputs",
                         "no input named " + names.front());
  }

  const SourceTensor* OptionalInput(const std::vector<std::string>& names) const {
    for (const SourceTensor& tensor : source_.inputs) {
      if (std::find(names.begin(), names.end(), tensor.name) != names.end()) return &tensor;
    }
    return nullptr;
  }

  // The source's output i (ST CSV only), or nullptr.
  const SourceTensor* Output(size_t i) const {
    return i < source_.outputs.size() ? &source_.outputs[i] : nullptr;
  }

  const SourceAttribute* Attribute(const std::string& name) const {
    for (const SourceAttribute& attribute : source_.attributes) {
      if (attribute.name == name) return &attribute;
    }
    return nullptr;
  }

  void Axis(const std::string& name, const json& value) { axes_[name] = json::array({value}); }
  void Note(const std::string& text) { notes_.push_back(text); }

  // A tensor whose dtype or shape differs from what the operator's axes plan gets an override axis;
  // the documented checks then decide whether the call is valid (the importer skips it if not).
  void Expect(const std::string& tensor, const SourceTensor* source, const std::string& dtype, const Dims& shape) {
    if (!source) return;
    if (source->dtype != dtype) {
      Axis("dtype." + tensor, source->dtype);
      Note(tensor + " dtype " + source->dtype + " kept as an override axis");
    }
    if (source->shape != shape) {
      Axis("shape." + tensor, source->shape);
      Note(tensor + " shape kept as an override axis");
    }
  }

  void Distribution(const std::string& tensor, const SourceTensor& source) {
    if (!source.range) {
      Note(tensor + ": no range in the source; the operator's default distribution");
      return;
    }
    const ValueRange& r = *source.range;
    if (!std::isfinite(r.low) || !std::isfinite(r.high)) {
      throw NotExpressible(source.column + " range", "an unbounded range cannot be drawn uniformly");
    }
    json input = {{"dist", "uniform"}, {"low", r.low}, {"high", r.high}};
    json open = json::array();
    if (r.low < r.high) {
      if (r.low_open) open.push_back("low");
      if (r.high_open) open.push_back("high");
    }
    if (!open.empty()) input["open"] = open;
    inputs_[tensor] = input;
  }

  // The tensor is 1/sqrt(v + offset) for v drawn from the source's range (a variance the kernel
  // turns into rstd itself).
  void RsqrtDistribution(const std::string& tensor, const SourceTensor& source, double offset) {
    if (!source.range) {
      Note(tensor + ": no range in the source; the operator's default distribution");
      return;
    }
    const ValueRange& r = *source.range;
    if (!std::isfinite(r.low) || !std::isfinite(r.high) || r.low < 0 || !(r.low + offset > 0)) {
      throw NotExpressible(source.column + " range", "a variance range must be finite and at least 0");
    }
    inputs_[tensor] = {{"dist", "rsqrt_uniform"}, {"low", r.low}, {"high", r.high}, {"offset", offset}};
  }

  // Output i of the operator is judged with the source's tolerance i; sources with fewer entries
  // than outputs (one pair for three outputs) apply their last entry to the rest.
  void CloseTolerance(const std::vector<std::string>& outputs) {
    if (source_.tolerance.standard != "ttk_close") return;
    if (source_.close_by_position.empty()) {
      throw NotExpressible(source_.tolerance_column, "no tolerance and no output dtype to take ttk's default from");
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      close_[outputs[i]] = source_.close_by_position[std::min(i, source_.close_by_position.size() - 1)];
    }
  }

  json Build(const std::string& op) const {
    json cann = {{"standard", source_.tolerance.standard}, {"source", source_.tolerance.source}};
    if (!close_.empty()) {
      json outputs = json::object();
      for (const auto& [name, t] : close_) outputs[name] = {{"rtol", t.rtol}, {"atol", t.atol}, {"ptol", t.ptol}};
      cann["outputs"] = outputs;
    }
    std::string description = "Imported from " + std::filesystem::path(source_.file).filename().string() + " " +
                              source_.location + " (" + source_.format + ", " + source_.op + ")";
    for (const std::string& note : notes_) description += "; " + note;
    json document = {{"name", SafeName(source_.name)}, {"op", op}, {"description", description},
                     {"axes", axes_},                   {"cann_tolerance", cann}};
    if (!inputs_.empty()) document["inputs"] = inputs_;
    return document;
  }

  const SourceCase& source() const { return source_; }

 private:
  SourceCase source_;
  json axes_ = json::object();
  json inputs_ = json::object();
  std::map<std::string, CannCloseTolerance> close_;
  std::vector<std::string> notes_;
};

int64_t IntegerAttribute(const Mapping& m, const std::string& name, int64_t fallback) {
  const SourceAttribute* attribute = m.Attribute(name);
  if (!attribute) return fallback;
  const std::optional<int64_t> value = ExactInt64(attribute->value);
  if (!value) {
    throw NotExpressible(attribute->column, name + " must be one integer, got " +
                                                (attribute->range ? "a range" : attribute->value.dump()));
  }
  return *value;
}

json SwiGluGrad(Mapping& m) {
  m.NameInputsByPosition({"y_grad", "x"});
  const SourceTensor& y_grad = m.Input({"y_grad", "yGrad"});
  const SourceTensor& x = m.Input({"x"});
  // swi_glu_grad's prototype: dim is optional, default -1.
  const int64_t dim = IntegerAttribute(m, "dim", -1);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  Dims half = x.shape;
  if (rank > 0 && dim >= -rank && dim < rank) half[static_cast<size_t>(dim < 0 ? dim + rank : dim)] /= 2;
  m.Axis("dtype", x.dtype);
  m.Axis("x_shape", x.shape);
  m.Axis("dim", dim);
  m.Expect("yGrad", &y_grad, x.dtype, half);
  m.Expect("out", m.Output(0), x.dtype, x.shape);
  m.Distribution("yGrad", y_grad);
  m.Distribution("x", x);
  m.CloseTolerance({"out"});
  return m.Build("SwiGluGrad");
}

json LogitGrad(Mapping& m) {
  m.NameInputsByPosition({"x", "dy"});
  const SourceTensor& x = m.Input({"x"});
  const SourceTensor& dy = m.Input({"dy"});
  double eps = -1;  // logit_grad's prototype default
  if (const SourceAttribute* attribute = m.Attribute("eps")) {
    if (attribute->range) {
      // ATK draws a scalar attribute from its range; one reproducible draw per case.
      const ValueRange& r = *attribute->range;
      if (!std::isfinite(r.low) || !std::isfinite(r.high)) {
        throw NotExpressible(attribute->column, "an unbounded eps range");
      }
      const CounterRandom random(0, m.source().file.substr(m.source().file.rfind('/') + 1) + " " + m.source().location, "eps");
      uint64_t counter = 0;
      do {
        eps = r.low + (r.high - r.low) * random.Uniform(counter++);
      } while (r.low < r.high && counter < 16 && ((r.low_open && eps <= r.low) || (r.high_open && eps >= r.high)));
      m.Note("eps drawn from the source's range [" + json(r.low).dump() + ", " + json(r.high).dump() + "]");
    } else if (attribute->value.is_number()) {
      eps = attribute->value.get<double>();
    } else {
      throw NotExpressible(attribute->column, "eps must be a number, got " + attribute->value.dump());
    }
  } else {
    m.Note("eps absent: the kernel's default -1");
  }
  m.Axis("dtype", x.dtype);
  m.Axis("shape", x.shape);
  m.Axis("eps", eps);
  m.Expect("dy", &dy, x.dtype, x.shape);
  m.Expect("out", m.Output(0), x.dtype, x.shape);
  m.Distribution("x", x);
  m.Distribution("dy", dy);
  m.CloseTolerance({"out"});
  return m.Build("LogitGrad");
}

// normalizedShape (ATK: one attrs entry per dim, or a single dim) when given, else the rank of
// gamma; either way it must be the trailing dims of x.
size_t NormalizedRank(const Mapping& m, const SourceTensor& x, const SourceTensor& gamma) {
  Dims normalized = gamma.shape;
  std::string column = gamma.column;
  if (const SourceAttribute* attribute = m.Attribute("normalizedShape")) {
    const json list = attribute->value.is_array() ? attribute->value : json::array({attribute->value});
    normalized.clear();
    for (const json& dim : list) {
      const std::optional<int64_t> size = ExactInt64(dim);
      if (!size) throw NotExpressible(attribute->column, "normalizedShape must be integers, got " + attribute->value.dump());
      normalized.push_back(*size);
    }
    column = attribute->column;
  }
  const size_t rank = x.shape.size(), k = normalized.size();
  if (k == 0 || k > rank || !std::equal(normalized.begin(), normalized.end(), x.shape.end() - static_cast<long>(k))) {
    throw NotExpressible(column, "the normalized shape is not the last dims of x");
  }
  return k;
}

// The kernels behind aclnnLayerNormBackward take (dy, x, <statistic>, mean, gamma) and give
// pd_x, pd_gamma, pd_beta; they differ in the statistic: LayerNormGradV3 takes rstd, LayerNormGrad
// the variance. draw_rstd writes rstd's distribution from the statistic's source tensor.
json LayerNormBackwardFrom(Mapping& m, const std::string& statistic,
                           const std::function<void(Mapping&, const SourceTensor&, const std::string& dtype)>& draw_rstd) {
  // aclnnLayerNormBackward (ATK): gradOut, input, normalizedShape, mean, rstd, weightOptional,
  // biasOptional, outputMask.
  m.NameInputsByPosition({"dy", "x", statistic, "mean", "gamma"});
  const SourceTensor& dy = m.Input({"dy", "gradOut"});
  const SourceTensor& x = m.Input({"x", "input"});
  const SourceTensor& rstd = m.Input({statistic});
  const SourceTensor& mean = m.Input({"mean"});
  const SourceTensor& gamma = m.Input({"gamma", "weightOptional", "weight"});
  const SourceTensor* beta = m.OptionalInput({"biasOptional", "bias"});
  const size_t k = NormalizedRank(m, x, gamma);
  Dims stat_shape(x.shape.begin(), x.shape.end() - static_cast<long>(k));
  stat_shape.insert(stat_shape.end(), k, 1);
  std::vector<bool> mask = {true, true, true};  // the prototype's default output_mask
  for (const char* name : {"output_mask", "outputMask"}) {
    const SourceAttribute* attribute = m.Attribute(name);
    if (!attribute) continue;
    const json& value = attribute->value;
    if (!value.is_array() || !std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_boolean(); })) {
      throw NotExpressible(attribute->column, std::string(name) + " must be a list of booleans");
    }
    mask = value.get<std::vector<bool>>();
  }
  const std::string& dtype = x.dtype;
  m.Axis("dtype", dtype);
  m.Axis("input_shape", x.shape);
  m.Axis("normalized_rank", static_cast<int64_t>(k));
  m.Axis("weight", "given");
  m.Axis("bias", beta ? "given" : "none");
  if (!beta) m.Note("bias passed as null (the kernel has no beta input)");
  m.Note("mean and " + statistic + " drawn from the source's ranges like the source does, not derived from input");
  m.Axis("output_mask", mask);
  const bool stat_same = mean.dtype == dtype && rstd.dtype == dtype && dtype != "float32";
  const std::string stat_dtype = stat_same ? dtype : "float32";
  m.Axis("stat_dtype", stat_same ? "same" : "float32");
  const bool param_same = gamma.dtype == dtype && dtype != "float32";
  const std::string param_dtype = param_same ? dtype : "float32";
  m.Axis("param_dtype", param_same ? "same" : "float32");
  m.Expect("gradOut", &dy, dtype, x.shape);
  m.Expect("mean", &mean, stat_dtype, stat_shape);
  m.Expect("rstd", &rstd, stat_dtype, stat_shape);
  m.Expect("weight", &gamma, param_dtype, gamma.shape);
  m.Expect("bias", beta, param_dtype, gamma.shape);
  m.Expect("gradInput", m.Output(0), dtype, x.shape);
  m.Expect("gradWeight", m.Output(1), param_dtype, gamma.shape);
  m.Expect("gradBias", m.Output(2), param_dtype, gamma.shape);
  m.Distribution("gradOut", dy);
  m.Distribution("input", x);
  m.Distribution("mean", mean);
  draw_rstd(m, rstd, dtype);
  m.Distribution("weight", gamma);
  if (beta) m.Distribution("bias", *beta);
  m.CloseTolerance({"gradInput", "gradWeight", "gradBias"});
  return m.Build("LayerNormBackward");
}

// LayerNormGradV3's prototype: dy, x, rstd, mean, gamma.
json LayerNormBackward(Mapping& m) {
  return LayerNormBackwardFrom(m, "rstd", [](Mapping& mapping, const SourceTensor& rstd, const std::string&) {
    mapping.Distribution("rstd", rstd);
  });
}

// LayerNormGrad (ops-nn norm/layer_norm_grad, the kernel behind aclnnLayerNormBackward on the
// SoCs without LayerNormGradV3): dy, x, variance, mean, gamma. It computes
// rstd = 1 / sqrt(variance + eps) itself, eps 1e-12 for float32 x and 1e-5 otherwise (op_host
// layer_norm_grad_tiling_base.cpp), so rstd is drawn as 1/sqrt of the row's variance range + eps.
json LayerNormGrad(Mapping& m) {
  return LayerNormBackwardFrom(m, "variance", [](Mapping& mapping, const SourceTensor& variance, const std::string& dtype) {
    const double eps = dtype == "float32" ? 1e-12 : 1e-5;
    mapping.RsqrtDistribution("rstd", variance, eps);
    mapping.Note("rstd = 1/sqrt(variance + " + json(eps).dump() + ") with the variance drawn from the source's range, "
                 "as LayerNormGrad derives it (eps for " + dtype + " x)");
  });
}

// Kernel names (ST CSV op_name) and aclnn names (ATK aclnn_name) of the operators mapped so far.
const std::map<std::string, std::function<json(Mapping&)>>& Mappers() {
  static const std::map<std::string, std::function<json(Mapping&)>> mappers = {
      {"swi_glu_grad", SwiGluGrad},           {"aclnnSwiGluGrad", SwiGluGrad},
      {"logit_grad", LogitGrad},              {"aclnnLogitGrad", LogitGrad},
      {"layer_norm_grad_v3", LayerNormBackward}, {"aclnnLayerNormBackward", LayerNormBackward},
      // ATK's LayerNormBackward list names the operator without the aclnn prefix.
      {"LayerNormBackward", LayerNormBackward},
      {"layer_norm_grad", LayerNormGrad},
  };
  return mappers;
}

}  // namespace

json MapToCaseFile(const SourceCase& source) {
  const auto it = Mappers().find(source.op);
  if (it == Mappers().end()) {
    std::string known;
    for (const auto& [name, mapper] : Mappers()) known += (known.empty() ? "" : ", ") + name;
    throw NotExpressible(source.format == "ST CSV" ? "op_name" : "aclnn_name",
                         "operator " + source.op + " has no mapping onto aclnn-check's operators (mapped: " + known + ")");
  }
  Mapping mapping(source);
  return it->second(mapping);
}

}  // namespace aclnn_check
