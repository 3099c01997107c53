#include "core/product.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace aclnn_check {
namespace {

constexpr std::array<Product, 6> kProducts = {Product::kA2,    Product::kA3,   Product::kInf,
                                              Product::kTrain, Product::k200I, Product::kA5};
constexpr std::array<std::string_view, 6> kNames = {"A2", "A3", "INF", "TRAIN", "200I", "A5"};

struct SocEntry {
  std::string_view soc;
  Product product;
};

constexpr std::array<SocEntry, 19> kSocs = {{
    {"Ascend910B1", Product::kA2},          {"Ascend910B2", Product::kA2},
    {"Ascend910B2C", Product::kA2},         {"Ascend910B3", Product::kA2},
    {"Ascend910B4", Product::kA2},          {"Ascend910B4-1", Product::kA2},
    {"Ascend310P1", Product::kInf},         {"Ascend310P3", Product::kInf},
    {"Ascend310P5", Product::kInf},         {"Ascend310P7", Product::kInf},
    {"Ascend910A", Product::kTrain},        {"Ascend910B", Product::kTrain},
    {"Ascend910ProA", Product::kTrain},     {"Ascend910ProB", Product::kTrain},
    {"Ascend910PremiumA", Product::kTrain}, {"Ascend310B1", Product::k200I},
    {"Ascend310B2", Product::k200I},        {"Ascend310B3", Product::k200I},
    {"Ascend310B4", Product::k200I},
}};

constexpr std::string_view kA3Prefix = "Ascend910_93";

// Every Ascend 950 SoC name CANN knows: the platform configs of hicann/runtime
// (src/platform/platform_config/cann-dev/Ascend950*.ini) and, for Ascend950PR_958a, which has no
// config there, its binning table (src/runtime/core/inc/spec/base_info.hpp). Some suffixes carry
// letters (95A1, 957b, 950x), so no digit pattern would do: docs/ascend950.md.
constexpr std::array<std::string_view, 36> kA5Socs = {
    "Ascend950DT_950x", "Ascend950DT_950y",  "Ascend950DT_9571", "Ascend950DT_9572",
    "Ascend950DT_9573", "Ascend950DT_9574",  "Ascend950DT_9575", "Ascend950DT_9576",
    "Ascend950DT_9577", "Ascend950DT_9578",  "Ascend950DT_9581", "Ascend950DT_9581x",
    "Ascend950DT_9582", "Ascend950DT_9582x", "Ascend950DT_9583", "Ascend950DT_9584",
    "Ascend950DT_9585", "Ascend950DT_9586",  "Ascend950DT_9587", "Ascend950DT_9588",
    "Ascend950DT_9591", "Ascend950DT_9592",  "Ascend950DT_9595", "Ascend950DT_9596",
    "Ascend950DT_95A1", "Ascend950DT_95A2",  "Ascend950PR_950z", "Ascend950PR_9579",
    "Ascend950PR_957b", "Ascend950PR_957bx", "Ascend950PR_957c", "Ascend950PR_957d",
    "Ascend950PR_9589", "Ascend950PR_958a",  "Ascend950PR_958b", "Ascend950PR_9599",
};

}  // namespace

std::span<const Product> AllProducts() { return kProducts; }

std::string_view ProductName(Product product) { return kNames[static_cast<size_t>(product)]; }

std::optional<Product> ParseProductName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return kProducts[i];
  }
  return std::nullopt;
}

std::optional<Product> ProductOfSoc(std::string_view soc_name) {
  for (const SocEntry& entry : kSocs) {
    if (entry.soc == soc_name) return entry.product;
  }
  if (std::find(kA5Socs.begin(), kA5Socs.end(), soc_name) != kA5Socs.end()) return Product::kA5;
  if (soc_name.starts_with(kA3Prefix) && soc_name.size() > kA3Prefix.size()) {
    const std::string_view digits = soc_name.substr(kA3Prefix.size());
    if (std::all_of(digits.begin(), digits.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return Product::kA3;
    }
  }
  return std::nullopt;
}

std::string_view ExampleSoc(Product product) {
  switch (product) {
    case Product::kA2:
      return "Ascend910B3";
    case Product::kA3:
      return "Ascend910_9391";
    case Product::kInf:
      return "Ascend310P3";
    case Product::kTrain:
      return "Ascend910A";
    case Product::k200I:
      return "Ascend310B1";
    case Product::kA5:
      return "Ascend950PR_9599";
  }
  return kDefaultEmulatedSoc;
}

std::string EmulatedSocName() {
  const char* value = std::getenv("ACLNN_CPU_SOC");
  return (value && *value) ? std::string(value) : std::string(kDefaultEmulatedSoc);
}

}  // namespace aclnn_check
