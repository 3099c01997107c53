// LayerNormBackward's CANN case import (docs/contract/case-files.md): the kernels behind
// aclnnLayerNormBackward (LayerNormGradV3, LayerNormGrad) and ATK's aclnnLayerNormBackward cases
// onto cases/layer_norm_backward axes. Compiled into the import layer (src/import).
#include <functional>
#include <span>

#include "import/case_mapping_builder.h"
#include "json_input/json_integers.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using Dims = std::vector<int64_t>;

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

const CannOperatorName kNames[] = {
    {"layer_norm_grad_v3", LayerNormBackward},
    {"aclnnLayerNormBackward", LayerNormBackward},
    // ATK's LayerNormBackward list names the operator without the aclnn prefix.
    {"LayerNormBackward", LayerNormBackward},
    {"layer_norm_grad", LayerNormGrad},
};

}  // namespace

std::span<const CannOperatorName> CannImportNames_layer_norm_backward() { return kNames; }

}  // namespace aclnn_check
