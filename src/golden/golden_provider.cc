#include "golden/golden_provider.h"

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "core/sha256.h"
#include "device_access/loader.h"
#include "json_input/input_error.h"

namespace aclnn_check {

LoadedProvider LoadProviderFor(const std::string& spec, const std::optional<std::string>& soc) {
  // The bundled providers read the SoC they emulate when they are loaded.
  if (soc && IsBundledProvider(spec)) setenv("ACLNN_CPU_SOC", soc->c_str(), 1);
  LoadedProvider loaded;
  loaded.provider = Provider::Load(spec);
  loaded.soc = soc ? *soc : loaded.provider->SocName().value_or("");
  const std::optional<Product> product = ProductOfSoc(loaded.soc);
  if (!product) {
    throw InputError("--soc", loaded.soc.empty() ? "(none)" : loaded.soc,
                     "a SoC of docs/contract/products.md (the provider reported none or an unknown one; name one with --soc)");
  }
  loaded.product = *product;
  return loaded;
}

nlohmann::json ProviderProvenance(const std::string& spec) {
  nlohmann::json libraries = nlohmann::json::array();
  for (const std::string& path : ProviderPaths(spec)) {
    libraries.push_back({{"path", path}, {"sha256", Sha256OfFile(path)}});
  }
  return {{"spec", spec}, {"libraries", libraries}};
}

std::string UtcTimestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace aclnn_check
