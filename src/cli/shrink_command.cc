#include "cli/shrink_command.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "device_access/loader.h"
#include "device_access/provider.h"
#include "results/atomic_file.h"
#include "runner/isolation.h"
#include "cli/run_command.h"
#include "shrink/shrink_search.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

struct ShrinkArguments {
  ShrinkOptions options;
  std::optional<std::string> soc;
  bool no_isolate = false;
};

// The SoC the point runs as: --soc, else what the provider reports (from a throwaway worker
// when isolated, as `run` does).
std::string ResolveSoc(const ShrinkArguments& arguments) {
  if (arguments.soc) return *arguments.soc;
  std::optional<std::string> reported;
  if (arguments.options.isolate) {
    const ProviderProbe probe =
        ProbeProvider(arguments.options.provider, arguments.options.timeout_seconds);
    if (!probe.error.empty()) throw ProviderError(probe.error);
    reported = probe.soc;
  } else {
    reported = Provider::Load(arguments.options.provider)->SocName();
  }
  if (!reported || reported->empty()) throw ShrinkError("the provider has no aclrtGetSocName; name the product with --soc");
  return *reported;
}

std::string Describe(const PointSize& size) {
  return std::to_string(size.elements) + " elements in all tensors, " + std::to_string(size.specials) +
         " special values, ranks summing to " + std::to_string(size.rank);
}

int ShrinkCommand(ShrinkArguments& arguments) {
  ShrinkOptions& options = arguments.options;
  options.isolate = !arguments.no_isolate;
  // The bundled providers emulate the product named by ACLNN_CPU_SOC.
  if (arguments.soc && IsBundledProvider(options.provider)) setenv("ACLNN_CPU_SOC", arguments.soc->c_str(), 1);
  const std::string soc = ResolveSoc(arguments);
  const std::optional<Product> product = ProductOfSoc(soc);
  if (!product) throw ShrinkError("SoC '" + soc + "' is not a known Ascend product (docs/contract/products.md); name one with --soc");
  options.product = *product;
  RunOptions run;
  run.provider = options.provider;
  run.profiles = options.profiles;
  options.repro_prefix = ReproPrefix(run, soc);

  const ShrinkResult shrink = Shrink(options);
  WriteFileAtomically(shrink.path, shrink.document.dump(2) + "\n");
  const nlohmann::json& failures = shrink.result.at("failures");
  std::string message;
  for (const auto& failure : failures) {
    if (failure.at("rule") == shrink.rule) message = failure.at("message").get<std::string>();
  }
  std::cout << "shrunk " << shrink.original_id << "\n  (" << Describe(shrink.original_size) << ")\n"
            << "to " << shrink.id << "\n  (" << Describe(shrink.size)
            << ")\n"
            << "rule " << shrink.rule << " still fails: " << message << "\n"
            << shrink.steps << " steps, " << shrink.tried << " variants run, " << static_cast<int>(shrink.seconds + 0.5)
            << " s" << (shrink.time_limit_reached ? "; stopped at --time-limit (a longer one may shrink further)" : "")
            << "\ncase file " << shrink.path << ":\n"
            << shrink.document.dump(2) << "\nrepro: " << shrink.result.at("repro").get<std::string>() << "\n";
  return 0;
}

}  // namespace

void AddShrinkCommand(CLI::App& app, int* exit_code) {
  auto arguments = std::make_shared<ShrinkArguments>();
  ShrinkOptions& options = arguments->options;
  auto* shrink = app.add_subcommand(
      "shrink",
      "Find the smallest test point that still fails the same rule as a failing one (give its repro "
      "arguments); write and print its case file and repro line");
  shrink->add_option("cases", options.cases, "Case files or folders (as in the repro line)")->required();
  shrink->add_option("--filter", options.filter, "The failing test point's id (a glob selecting exactly one)")
      ->required();
  shrink->add_option("--provider", options.provider, "cpu, ref, cuda or PATH[:PATH...]")->capture_default_str();
  shrink->add_option("--soc", arguments->soc, "SoC name to test as (overrides aclrtGetSocName)");
  shrink->add_option("--profile", options.profiles, "Profile of rule overrides (repeatable)");
  shrink->add_option("--rule", options.rule, "The rule that must keep failing (default: the point's first failure)");
  shrink->add_option("--time-limit", options.time_limit_seconds, "Seconds the search may take; the smallest point so far is kept")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  shrink->add_option("--timeout", options.timeout_seconds, "Seconds per test point")->capture_default_str();
  shrink->add_option("--jobs,-j", options.jobs, "Variants run at once (the result does not depend on it)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  shrink->add_flag("--no-isolate", arguments->no_isolate, "Run the points in this process (for debugging)");
  shrink->add_option("-o,--output", options.output, "Where the case file goes (default reports/shrunk/<case>.json)");
  shrink->callback([arguments, exit_code] {
    try {
      *exit_code = ShrinkCommand(*arguments);
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check shrink: " << error.what() << "\n";
      *exit_code = 2;
    }
  });
}

}  // namespace aclnn_check
