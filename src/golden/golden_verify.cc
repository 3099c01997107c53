#include "golden/golden_verify.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "core/build_info.h"
#include "check/element_check.h"
#include "golden/golden_provider.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "results/profile.h"

namespace aclnn_check {
namespace {

Tolerance DocumentedTolerance(const Operator& op, std::string_view output) {
  const OutputTolerance& documented = op.Tolerance(output);
  return Tolerance{documented.ulp, documented.c, DType::kFloat32};
}

// Special values agree exactly (NaN with NaN, inf with the same inf); finite ones within the bound.
bool Agrees(double device, double expected, double mag, DType out, const Tolerance& tolerance) {
  return CheckElement(device, expected, mag, out, tolerance).pass;
}

}  // namespace

std::vector<std::string> FindGoldenFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file() && entry.path().extension() == ".h5") files.push_back(entry.path().string());
      }
    } else if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
    } else {
      throw InputError(path, "/", "a golden file or a folder of *.h5 files (it does not exist)");
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

ReferenceResult OracleReference(const GoldenPoint& stored, const PreparedPoint& prepared) {
  const Operator& op = *stored.op;
  ReferenceResult reference = op.Reference(prepared.args);
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    ReferenceOutput& output = reference.outputs[slot];
    const std::string name(op.tensors()[slot].name);
    const auto expected = stored.expected.find(name);
    if (!output.computed || expected == stored.expected.end()) continue;
    for (size_t i = 0; i < output.value.size() && i < expected->second.size(); ++i) {
      if (output.rule[i] == kNoRule && stored.RuleAt(name, i).empty()) output.value[i] = expected->second[i];
    }
  }
  return reference;
}

std::map<std::string, RuleFollowing> WhichWasFollowed(const GoldenPoint& stored,
                                                      const ReferenceResult& reference,
                                                      const DeviceOutputs& device) {
  std::map<std::string, RuleFollowing> following;
  const Operator& op = *stored.op;
  for (const auto& [name, indices] : stored.rule) {
    const auto values = device.find(name);
    const size_t slot = *op.TensorIndex(name);
    if (values == device.end() || !reference.outputs[slot].computed) continue;
    const DType out = stored.plan.tensors[slot]->dtype;
    const Tolerance tolerance = DocumentedTolerance(op, name);
    const std::vector<double>& mag = reference.outputs[slot].mag;
    for (size_t i = 0; i < indices.size() && i < values->second.size(); ++i) {
      if (indices[i] == 0) continue;
      RuleFollowing& tally = following[stored.rule_ids[indices[i] - 1]];
      const double dev = values->second[i];
      if (Agrees(dev, stored.documented.at(name)[i], mag[i], out, tolerance)) {
        ++tally.followed_rule;
      } else if (Agrees(dev, stored.expected.at(name)[i], mag[i], out, tolerance)) {
        ++tally.followed_oracle;
      } else {
        ++tally.followed_neither;
      }
    }
  }
  return following;
}

namespace {

// Where the oracle (PyTorch) and a documented rule differ, which of the two the provider followed.
void PrintFollowing(const std::map<std::string, RuleFollowing>& following) {
  for (const auto& [rule, tally] : following) {
    std::cout << "where the oracle (PyTorch) and rule " << rule << " differ: the provider followed the rule in "
              << tally.followed_rule << " elements, PyTorch in " << tally.followed_oracle << ", neither in "
              << tally.followed_neither << "\n";
  }
}

// The reports of the verified points; false (with the error on stderr) when they cannot be written.
bool WriteVerifyReports(const GoldenVerifyOptions& options, const LoadedProvider& loaded,
                        const Profiles& profiles, const nlohmann::json& test_points,
                        const std::vector<std::string>& operators) {
  const nlohmann::json metadata = {
      {"provider", ProviderProvenance(options.provider)},
      {"soc", loaded.soc},
      {"product", std::string(ProductName(loaded.product))},
      {"host", "localhost"},
      {"git_revision", GitRevision()},
      {"started", UtcTimestamp()},
      {"duration_seconds", 0},
      {"command", "golden verify"},
      {"shard", "1/1"},
      {"overrides", OverridesJson(profiles)},
  };
  const nlohmann::json report = BuildReport(metadata, test_points, operators);
  try {
    WriteReports(report, options.report_dir);
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int VerifyGolden(const GoldenVerifyOptions& options) {
  std::vector<GoldenFile> files;
  LoadedProvider loaded;
  Profiles profiles;
  try {
    for (const std::string& path : FindGoldenFiles(options.paths)) files.push_back(ReadGoldenFile(path));
    loaded = LoadProviderFor(options.provider, options.soc);
    profiles = Profiles::Load(options.profiles);
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  const DeviceSession session(*loaded.provider);
  RunContext context{.provider = loaded.provider.get(),
                     .product = loaded.product,
                     .profiles = &profiles,
                     .repro_prefix = "aclnn-check golden verify --provider '" + options.provider +
                                     "' --soc " + loaded.soc,
                     .run_cases = {}};
  nlohmann::json test_points = nlohmann::json::array();
  std::vector<std::string> operators;
  std::map<std::string, RuleFollowing> following;
  int failed = 0, skipped = 0, not_provided = 0;
  for (const GoldenFile& file : files) {
    for (const GoldenPoint& stored : file.points) {
      StoredTestPoint stored_point = StoredTestPointOf(stored, file.path, loaded.product);
      if (!stored_point.point.expected.ok()) {
        ++skipped;  // e.g. NsaCompressGrad on a product other than A2
        continue;
      }
      PreparedPoint prepared;
      try {
        prepared = PrepareStoredPoint(stored, file.path);
      } catch (const InputError& error) {
        std::cerr << "aclnn-check: " << error.what() << "\n";
        return 2;
      }
      prepared.reference = OracleReference(stored, prepared);
      const ReferenceResult reference = *prepared.reference;
      CapturedOutputs captured;
      TestPointResult result = ExecutePoint(stored_point.point, session, context, &prepared, &captured);
      const DeviceOutputs device = captured.Decoded();
      result.repro = context.repro_prefix + " '" + file.path + "'";
      for (const auto& [rule, tally] : WhichWasFollowed(stored, reference, device)) {
        following[rule].followed_oracle += tally.followed_oracle;
        following[rule].followed_rule += tally.followed_rule;
        following[rule].followed_neither += tally.followed_neither;
      }
      if (result.verdict == Verdict::kNotProvided) {
        ++not_provided;  // as in `run`: a provider may implement only some operators
      } else if (result.verdict != Verdict::kPassed) {
        ++failed;
        std::cout << "FAIL " << stored.id << " (" << file.path << ")\n";
        if (!result.failures.empty()) {
          std::cout << "  " << result.failures[0].rule << ": " << result.failures[0].message << "\n";
        }
      }
      if (std::find(operators.begin(), operators.end(), stored.op->name()) == operators.end()) {
        operators.push_back(stored.op->name());
      }
      test_points.push_back(TestPointJson(result));
    }
  }
  PrintFollowing(following);
  if (!WriteVerifyReports(options, loaded, profiles, test_points, operators)) return 2;
  std::cout << test_points.size() << " golden test points: " << test_points.size() - failed - not_provided
            << " passed, " << failed << " failed, " << not_provided << " not provided, " << skipped
            << " not on " << ProductName(loaded.product)
            << " (provider " << options.provider << "); reports in " << options.report_dir << "\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace aclnn_check
