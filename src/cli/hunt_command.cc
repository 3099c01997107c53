#include "cli/hunt_command.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "catalogue/operator.h"
#include "cli/run_command.h"
#include "device_access/loader.h"
#include "device_access/provider.h"
#include "hunt/hunt_search.h"
#include "results/atomic_file.h"
#include "runner/isolation.h"
#include "shrink/shrink_search.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

struct HuntArguments {
  HuntOptions options;
  std::vector<std::string> targets;  // an operator, or case files
  std::optional<std::string> soc;
  std::string measure = "ulp";
  std::string moves = "all";
  bool no_isolate = false;
  bool quiet = false;
  bool shrink = false;
  double shrink_time_limit = 120;
};

// The SoC the points run as: --soc, else what the provider reports (from a throwaway worker when
// isolated, as `run` does).
std::string ResolveSoc(const HuntArguments& arguments) {
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
  if (!reported || reported->empty())
    throw HuntError("the provider has no aclrtGetSocName; name the product with --soc");
  return *reported;
}

std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string Standing(const HuntScore& score, HuntMeasure measure) {
  return std::string(score.failed ? "FAILS, " : "passes, ") +
         std::string(HuntMeasureName(measure)) + " " + Short(score.value);
}

void PrintWorstElement(const json& result) {
  for (const json& output : result.value("outputs", json::array())) {
    const json& worst = output.at("worst");
    if (worst.at("index").get<int64_t>() < 0) continue;
    std::cout << "  " << output.at("name").get<std::string>() << "[" << worst.at("index")
              << "] = " << worst.at("device") << ", reference " << worst.at("reference") << ", "
              << worst.at("ulp_error") << " ulp"
              << (worst.at("passed").get<bool>() ? "" : " (fails)");
    for (const auto& [name, value] : worst.at("inputs").items())
      std::cout << ", " << name << " " << value;
    std::cout << "\n";
  }
  for (const json& failure : result.value("failures", json::array())) {
    std::cout << "  " << failure.at("rule").get<std::string>() << ": "
              << failure.at("message").get<std::string>() << "\n";
  }
}

void Configure(HuntArguments& arguments) {
  HuntOptions& options = arguments.options;
  options.isolate = !arguments.no_isolate;
  const auto measure = ParseHuntMeasure(arguments.measure);
  if (!measure)
    throw HuntError("--measure '" + arguments.measure + "': expected ulp, rel, mare or rules");
  options.measure = *measure;
  const auto moves = ParseMoveSet(arguments.moves);
  if (!moves)
    throw HuntError("--moves '" + arguments.moves +
                    "': expected all, random, or a list of bits, boundaries, cancel");
  options.moves = *moves;
  if (arguments.targets.size() == 1 && FindOperator(arguments.targets[0])) {
    options.op = arguments.targets[0];
  } else if (arguments.targets.size() == 1 && !std::filesystem::exists(arguments.targets[0])) {
    throw HuntError("'" + arguments.targets[0] +
                    "' is neither an operator (a name, folder or rule prefix under kernels/) nor a "
                    "case file or folder");
  } else {
    options.cases = arguments.targets;
  }
  // The bundled providers emulate the product named by ACLNN_CPU_SOC.
  if (arguments.soc && IsBundledProvider(options.provider))
    setenv("ACLNN_CPU_SOC", arguments.soc->c_str(), 1);
  const std::string soc = ResolveSoc(arguments);
  const std::optional<Product> product = ProductOfSoc(soc);
  if (!product)
    throw HuntError("SoC '" + soc +
                    "' is not a known Ascend product (docs/contract/products.md); name one with --soc");
  options.product = *product;
  RunOptions run;
  run.provider = options.provider;
  run.profiles = options.profiles;
  options.repro_prefix = ReproPrefix(run, soc);
  if (!arguments.quiet) {
    options.on_progress = [last = -1.0, &options](const HuntProgress& p) mutable {
      if (p.seconds - last < 1 && p.calls > 1) return;
      last = p.seconds;
      std::cerr << "hunt: " << p.calls << " calls, " << p.candidates << " candidates, "
                << Short(p.seconds) << " s; best " << Standing(p.best, options.measure) << " ("
                << p.point_id << ")\n";
    };
  }
}

int ShrinkFound(const HuntArguments& arguments, const HuntResult& hunt) {
  ShrinkOptions shrink;
  shrink.cases = {hunt.path};
  shrink.filter = hunt.point_id;
  shrink.provider = arguments.options.provider;
  shrink.product = arguments.options.product;
  shrink.profiles = arguments.options.profiles;
  shrink.time_limit_seconds = arguments.shrink_time_limit;
  shrink.timeout_seconds = arguments.options.timeout_seconds;
  shrink.isolate = arguments.options.isolate;
  shrink.repro_prefix = arguments.options.repro_prefix;
  // Beside the hunt's case file: hunt.json gives hunt.shrunk.json.
  const std::filesystem::path path(hunt.path);
  shrink.output = (path.parent_path() / (path.stem().string() + ".shrunk.json")).string();
  const ShrinkResult shrunk = Shrink(shrink);
  WriteFileAtomically(shrunk.path, shrunk.document.dump(2) + "\n");
  std::cout << "shrunk to " << shrunk.id << " (" << shrunk.size.elements << " elements, rule "
            << shrunk.rule << "): " << shrunk.path
            << "\nrepro: " << shrunk.result.at("repro").get<std::string>() << "\n";
  return 1;
}

int HuntCommand(HuntArguments& arguments) {
  Configure(arguments);
  const HuntResult hunt = Hunt(arguments.options);
  const HuntMeasure measure = arguments.options.measure;
  std::cout << "hunted " << hunt.points << " test point" << (hunt.points == 1 ? "" : "s")
            << " with --moves " << MoveSetName(arguments.options.moves) << ": " << hunt.calls
            << " calls, " << hunt.candidates << " candidates, " << Short(hunt.seconds) << " s\n"
            << "worst: " << hunt.point_id << ": " << Standing(hunt.worst, measure);
  if (hunt.first_failure_call > 0)
    std::cout << "; first failure at call " << hunt.first_failure_call;
  std::cout << "\n";
  PrintWorstElement(hunt.result);
  std::cout << "case file " << hunt.path
            << "\nrepro: " << hunt.result.at("repro").get<std::string>() << "\n";
  if (!hunt.reproduced) {
    std::cout << "warning: the case file run once more " << (hunt.worst.failed ? "passes" : "fails")
              << ": the provider is not deterministic on this input\n";
  }
  if (hunt.worst.failed && arguments.shrink) return ShrinkFound(arguments, hunt);
  return hunt.worst.failed ? 1 : 0;
}

}  // namespace

void AddHuntCommand(CLI::App& app, int* exit_code) {
  auto arguments = std::make_shared<HuntArguments>();
  HuntOptions& options = arguments->options;
  auto* hunt =
      app.add_subcommand("hunt",
                         "Search one operator's inputs (or case files' points) for those on which "
                         "the provider is worst; write "
                         "the worst as a case file with its repro line (exit 1 when it fails)");
  hunt->add_option("target", arguments->targets,
                   "An operator (LogitGrad, logit_grad, ...) or case files and folders")
      ->required();
  hunt->add_option("--dtype", options.dtype,
                   "The operator's dtype axis (default: its default values)");
  hunt->add_option("--shape", options.shape, "The operator's shape axis, as JSON ('[64, 256]')");
  hunt->add_option("--axis", options.axes, "Another axis of the operator, NAME=JSON (repeatable)");
  hunt->add_option("--filter", options.filter, "Glob on test point ids")->capture_default_str();
  hunt->add_option("--provider", options.provider, "cpu, ref, cuda or PATH[:PATH...]")
      ->capture_default_str();
  hunt->add_option("--soc", arguments->soc, "SoC name to test as (overrides aclrtGetSocName)");
  hunt->add_option("--profile", options.profiles, "Profile of rule overrides (repeatable)");
  hunt->add_option("--measure", arguments->measure, "What to maximise: ulp, rel, mare or rules")
      ->capture_default_str();
  hunt->add_option(
          "--moves", arguments->moves,
          "all, random (sampling the case's distributions), or a list of bits, boundaries, cancel")
      ->capture_default_str();
  hunt->add_option("--seed", options.seed, "The search's seed (and the operator case's)")
      ->capture_default_str();
  hunt->add_option("--budget", options.budget_seconds,
                   "Seconds for the whole hunt, split over its points")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  hunt->add_option("--calls", options.max_calls,
                   "Provider calls per point at most (0: the budget alone)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  hunt->add_option("--timeout", options.timeout_seconds, "Seconds per call")->capture_default_str();
  hunt->add_flag("--stop-at-failure", options.stop_at_failure,
                 "End the hunt at the first failing call");
  hunt->add_flag("--shrink", arguments->shrink, "Hand a failing result to `shrink`");
  hunt->add_option("--shrink-time-limit", arguments->shrink_time_limit, "shrink's --time-limit")
      ->capture_default_str();
  hunt->add_flag("--quiet", arguments->quiet, "No progress lines");
  hunt->add_flag("--no-isolate", arguments->no_isolate,
                 "Run the calls in this process (for debugging)");
  hunt->add_option("-o,--output", options.output,
                   "Where the case file goes (default reports/hunt/<case>.json)");
  hunt->callback([arguments, exit_code] {
    try {
      *exit_code = HuntCommand(*arguments);
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check hunt: " << error.what() << "\n";
      *exit_code = 2;
    }
  });
}

}  // namespace aclnn_check
