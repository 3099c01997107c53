// The provider a golden command runs on, loaded into this process (golden data is small, so the
// commands run points one after another without worker processes), with its SoC and product.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/product.h"
#include "device_access/provider.h"

namespace aclnn_check {

struct LoadedProvider {
  std::unique_ptr<Provider> provider;
  std::string soc;
  Product product = Product::kA2;
};

// spec: cpu, ref or PATH[:PATH...]; soc overrides aclrtGetSocName (and sets the SoC the bundled
// providers emulate). Throws ProviderError, or InputError for an unknown SoC.
LoadedProvider LoadProviderFor(const std::string& spec, const std::optional<std::string>& soc);

// {"spec", "libraries": [{"path", "sha256"}]}: what ran, for provenance.
nlohmann::json ProviderProvenance(const std::string& spec);

// "2026-11-23T11:07:00Z"
std::string UtcTimestamp();

}  // namespace aclnn_check
