#include "cli/golden_commands.h"

#include <filesystem>
#include <iostream>

#include "core/build_info.h"
#include "golden/drift.h"
#include "golden/golden_file.h"
#include "golden/golden_provider.h"
#include "golden/golden_record.h"
#include "golden/golden_verify.h"
#include "golden/stored_point.h"
#include "report/report_files.h"
#include "report/report_json.h"

namespace aclnn_check {
namespace {

int WriteGoldenInputs(const std::vector<std::string>& cases, const std::string& filter, int recheck_runs,
                      const std::string& output) {
  // Written point by point into a file beside the output and renamed when complete, so a bad case
  // file met half-way leaves an existing output as it was.
  const std::string partial = output + ".partial";
  try {
    size_t points = 0;
    {
      GoldenWriter writer(partial, {{"kind", "inputs"},
                                    {"created", UtcTimestamp()},
                                    {"harness_version", HarnessVersion()},
                                    {"git_revision", GitRevision()}});
      ForEachGoldenInput(cases, filter, recheck_runs, [&](const GoldenPoint& point) {
        writer.Add(point);
        ++points;
      });
    }
    std::filesystem::rename(partial, output);
    std::cout << "wrote the inputs of " << points << " test points to " << output << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

// The provider that made a recorded run, as report.json's run.provider wants it.
nlohmann::json ProviderOfRun(const GoldenFile& run) {
  const auto it = run.attributes.find("provider");
  if (it != run.attributes.end()) {
    nlohmann::json provider = nlohmann::json::parse(it->second, nullptr, false);
    if (provider.is_object() && provider.contains("spec") && provider.contains("libraries")) return provider;
  }
  return {{"spec", "unknown"}, {"libraries", nlohmann::json::array()}};
}

int DiffRecordedRuns(const std::string& before_path, const std::string& after_path, uint64_t max_ulp,
                     const std::string& report_dir) {
  try {
    const GoldenFile before = ReadGoldenFile(before_path);
    const GoldenFile after = ReadGoldenFile(after_path);
    const Drift drift = CompareRecordedRuns(before, after, max_ulp);
    const auto attribute = [&](const char* name) {
      const auto it = after.attributes.find(name);
      return it == after.attributes.end() ? std::string("unknown") : it->second;
    };
    const std::optional<Product> product = ProductOfSoc(attribute("soc"));
    const nlohmann::json metadata = {
        {"provider", ProviderOfRun(after)},
        {"soc", attribute("soc")},
        {"product", product ? std::string(ProductName(*product)) : "unknown"},
        {"host", "localhost"},
        {"git_revision", GitRevision()},
        {"started", UtcTimestamp()},
        {"duration_seconds", 0},
        {"command", "golden diff " + before_path + " " + after_path},
        {"shard", "1/1"},
        {"overrides", nlohmann::json::array()},
    };
    nlohmann::json report = BuildReport(metadata, nlohmann::json::array(), {});
    report["drift"] = DriftJson(drift);
    WriteReports(report, report_dir);
    const DriftCounts& t = drift.totals;
    std::cout << t.elements << " elements in " << drift.outputs.size() << " outputs: " << t.identical
              << " identical, " << t.within_ulp << " within " << max_ulp << " ULP, " << t.changed_special
              << " changed special values, " << t.beyond << " beyond (max " << t.max_ulp << " ULP); "
              << drift.only_before.size() << " points only in " << before_path << ", "
              << drift.only_after.size() << " only in " << after_path << ", " << drift.shape_changed.size()
              << " outputs changed shape; reports in " << report_dir << "\n";
    return drift.Exceeds() ? 1 : 0;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace

void AddGoldenCommands(CLI::App& app, int* exit_code) {
  auto* golden = app.add_subcommand("golden", "Golden data: an independent oracle, and drift between releases");
  golden->require_subcommand(1);

  struct InputsOptions {
    std::vector<std::string> cases;
    std::string filter = "*";
    std::string output;
    int recheck = 0;
  };
  auto inputs_options = std::make_shared<InputsOptions>();
  auto* inputs = golden->add_subcommand("inputs", "Write the inputs of test points, as the harness generates them, for tools/gen_golden.py");
  inputs->add_option("cases", inputs_options->cases, "Case files or folders (golden/cases)")->required();
  inputs->add_option("--filter", inputs_options->filter, "Glob on test point ids")->capture_default_str();
  inputs->add_option("-o,--output", inputs_options->output, "The .h5 file to write")->required();
  inputs->add_option("--recheck", inputs_options->recheck,
                     "Also each point's first N fresh-seed runs of `run --recheck` (for a recorded benchmark "
                     "that serves the re-check)")
      ->check(CLI::NonNegativeNumber);
  inputs->callback([=] {
    *exit_code = WriteGoldenInputs(inputs_options->cases, inputs_options->filter, inputs_options->recheck,
                                   inputs_options->output);
  });

  auto verify_options = std::make_shared<GoldenVerifyOptions>();
  auto* verify = golden->add_subcommand("verify", "Run a provider on the golden inputs and check its outputs against the oracle's");
  verify->add_option("golden", verify_options->paths, "Golden files or folders (default: golden)");
  verify->add_option("--provider", verify_options->provider, "cpu, ref, cuda or PATH[:PATH...]")->capture_default_str();
  verify->add_option("--soc", verify_options->soc, "SoC name to test as");
  verify->add_option("--profile", verify_options->profiles, "Profile of rule overrides (repeatable)");
  verify->add_option("--report-dir", verify_options->report_dir, "Where reports go")->capture_default_str();
  verify->callback([=] { *exit_code = VerifyGolden(*verify_options); });

  auto record_options = std::make_shared<GoldenRecordOptions>();
  auto* record = golden->add_subcommand("record", "Run case files on a provider and store its outputs with provenance");
  record->add_option("cases", record_options->cases, "Case files or folders (default: cases)");
  record->add_option("--provider", record_options->provider, "cpu, ref, cuda or PATH[:PATH...]")->capture_default_str();
  record->add_option("--soc", record_options->soc, "SoC name to test as");
  record->add_option("--filter", record_options->filter, "Glob on test point ids")->capture_default_str();
  record->add_option("-o,--output", record_options->output, "The .h5 file to write")->required();
  record->add_flag("--with-inputs", record_options->with_inputs,
                   "Store each point's inputs too (a comparator run for `run --comparator-run`)");
  record->add_option("--recheck", record_options->recheck,
                     "Also each point's first N fresh-seed runs of `run --recheck`, with inputs (a benchmark run "
                     "that serves the re-check)")
      ->check(CLI::NonNegativeNumber);
  record->callback([=] { *exit_code = RecordGolden(*record_options); });

  struct DiffOptions {
    std::string before, after;
    uint64_t max_ulp = 1;
    std::string report_dir = "reports/drift";
  };
  auto diff_options = std::make_shared<DiffOptions>();
  auto* diff = golden->add_subcommand("diff", "Compare two recorded runs element by element; exit 1 on drift beyond --max-ulp");
  diff->add_option("before", diff_options->before, "Recorded run A (.h5)")->required();
  diff->add_option("after", diff_options->after, "Recorded run B (.h5)")->required();
  diff->add_option("--max-ulp", diff_options->max_ulp, "ULP distance still counted as within")->capture_default_str();
  diff->add_option("--report-dir", diff_options->report_dir, "Where reports go")->capture_default_str();
  diff->callback([=] {
    *exit_code = DiffRecordedRuns(diff_options->before, diff_options->after, diff_options->max_ulp, diff_options->report_dir);
  });
}

}  // namespace aclnn_check
