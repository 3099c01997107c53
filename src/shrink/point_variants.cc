#include "shrink/point_variants.h"

#include <algorithm>
#include <functional>
#include <string>

namespace aclnn_check {
namespace {

using nlohmann::json;

bool IsDims(const json& value) {
  return value.is_array() && !value.empty() &&
         std::all_of(value.begin(), value.end(),
                     [](const json& d) { return d.is_number_integer() && d.get<int64_t>() >= 0; });
}

bool IsPositiveInteger(const json& value) { return value.is_number_integer() && value.get<int64_t>() > 0; }

// Collects variants in order, without repeats and without the document itself.
class VariantList {
 public:
  explicit VariantList(const json& document) : document_(document) {}

  // The document with one change applied.
  void Add(const std::function<void(json&)>& change) {
    json variant = document_;
    change(variant);
    if (variant == document_ || std::find(variants_.begin(), variants_.end(), variant) != variants_.end()) return;
    variants_.push_back(std::move(variant));
  }
  // The document with axis `name` (its one value) replaced.
  void AddAxis(const std::string& name, json value) {
    Add([&](json& variant) { variant["axes"][name] = json::array({std::move(value)}); });
  }
  std::vector<json> Take() { return std::move(variants_); }

 private:
  const json& document_;
  std::vector<json> variants_;
};

}  // namespace

PointSize SizeOf(const TestPoint& point) {
  PointSize size;
  for (const auto& tensor : point.plan.tensors) {
    if (!tensor) continue;
    size.elements += NumElements(tensor->shape);
    size.rank += static_cast<int64_t>(tensor->shape.size());
  }
  for (const auto& [name, spec] : point.case_file->inputs) size.specials += static_cast<int64_t>(spec.specials.size());
  size.strided = point.layout == Layout{} ? 0 : 1;
  return size;
}

json SinglePointDocument(const json& case_document, const TestPoint& point) {
  json document = case_document;
  json axes = json::object();
  for (const auto& [name, value] : point.axis_values.items()) axes[name] = json::array({value});
  document["axes"] = axes;
  document["layout"] = json::array({point.layout.ToString()});
  return document;
}

std::vector<json> SmallerVariants(const json& document) {
  VariantList variants(document);
  const json axes = document.value("axes", json::object());

  // Halving: every dim at once, then each dim, then each positive integer axis.
  for (const auto& [name, values] : axes.items()) {
    const json& value = values.at(0);
    if (IsDims(value)) {
      json all = value;
      for (json& d : all) d = std::max<int64_t>(d.get<int64_t>() / 2, std::min<int64_t>(d.get<int64_t>(), 1));
      variants.AddAxis(name, all);
      for (size_t i = 0; i < value.size(); ++i) {
        if (value[i].get<int64_t>() < 2) continue;
        json halved = value;
        halved[i] = value[i].get<int64_t>() / 2;
        variants.AddAxis(name, halved);
      }
    } else if (IsPositiveInteger(value) && value.get<int64_t>() >= 2) {
      variants.AddAxis(name, value.get<int64_t>() / 2);
    }
  }
  // Lower rank: each dim left out.
  for (const auto& [name, values] : axes.items()) {
    const json& value = values.at(0);
    if (!IsDims(value)) continue;
    for (size_t i = 0; i < value.size(); ++i) {
      json lower = value;
      lower.erase(i);
      variants.AddAxis(name, lower);
    }
  }
  // Fewer special values: all of an input's, then one at a time.
  const json inputs = document.value("inputs", json::object());
  for (const auto& item : inputs.items()) {
    // A named copy, not a structured binding: the lambdas below capture it (clang refuses
    // capturing a binding before C++20's P1091 is implemented).
    const std::string input = item.key();
    const json specials = item.value().value("specials", json::array());
    if (specials.empty()) continue;
    variants.Add([&](json& variant) { variant["inputs"][input].erase("specials"); });
    if (specials.size() < 2) continue;
    for (size_t i = 0; i < specials.size(); ++i) {
      variants.Add([&](json& variant) { variant["inputs"][input]["specials"].erase(i); });
    }
  }
  // The contiguous layout.
  variants.Add([](json& variant) { variant["layout"] = json::array({"contiguous"}); });
  // Smaller steps down, a quarter, an eighth, ... and last a single step: where halving went too
  // far, the largest step that still fails is found in about log2(dim) variants.
  const auto steps_down = [](int64_t size) {
    std::vector<int64_t> smaller;
    for (int64_t step = size / 4; step > 1; step /= 2) smaller.push_back(size - step);
    if (size >= 1) smaller.push_back(size - 1);
    return smaller;
  };
  for (const auto& [name, values] : axes.items()) {
    const json& value = values.at(0);
    if (IsDims(value)) {
      for (size_t i = 0; i < value.size(); ++i) {
        for (int64_t smaller : steps_down(value[i].get<int64_t>())) {
          json stepped = value;
          stepped[i] = smaller;
          variants.AddAxis(name, stepped);
        }
      }
    } else if (IsPositiveInteger(value)) {
      for (int64_t smaller : steps_down(value.get<int64_t>())) variants.AddAxis(name, smaller);
    }
  }
  return variants.Take();
}

}  // namespace aclnn_check
