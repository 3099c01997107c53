// Ascend product families and the SoC names that identify them (docs/contract/products.md).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace aclnn_check {

enum class Product : uint8_t {
  kA2,     // Atlas A2 training / A2 inference: Ascend910B1..B4
  kA3,     // Atlas A3: Ascend910_93xx
  kInf,    // Atlas inference series: Ascend310P*
  kTrain,  // Atlas training series: Ascend910A, the old Ascend910B, ...
  k200I,   // Atlas 200I/500 A2 inference: Ascend310B*
  kA5,     // Atlas 350 (Ascend 950PR/950DT, CANN's "ascend950"): docs/ascend950.md
};

std::span<const Product> AllProducts();
std::string_view ProductName(Product product);  // "A2", "A3", "INF", "TRAIN", "200I", "A5"
std::optional<Product> ParseProductName(std::string_view name);
// Exact SoC names only: plain "Ascend910B" is the old training chip, not an A2.
std::optional<Product> ProductOfSoc(std::string_view soc_name);
// One representative SoC name per product (used to emulate a product).
std::string_view ExampleSoc(Product product);

// The SoC name the bundled providers emulate: $ACLNN_CPU_SOC, default Ascend910B3.
std::string EmulatedSocName();
constexpr std::string_view kDefaultEmulatedSoc = "Ascend910B3";

}  // namespace aclnn_check
