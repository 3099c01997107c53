#include "golden/golden_record.h"

#include <fnmatch.h>

#include <iostream>

#include "core/build_info.h"
#include "golden/golden_file.h"
#include "golden/golden_provider.h"
#include "golden/stored_point.h"
#include "runner/precision_gate.h"
#include "results/profile.h"

namespace aclnn_check {

int RecordGolden(const GoldenRecordOptions& options) {
  try {
    const LoadedProvider loaded = LoadProviderFor(options.provider, options.soc);
    const DeviceSession session(*loaded.provider);
    const Profiles profiles;
    const RunContext context{.provider = loaded.provider.get(),
                             .product = loaded.product,
                             .profiles = &profiles,
                             .repro_prefix = "aclnn-check run",
                             .run_cases = {}};
    GoldenWriter writer(options.output, {{"kind", "recorded"},
                           {"created", UtcTimestamp()},
                           {"provider", ProviderProvenance(options.provider).dump()},
                           {"soc", loaded.soc},
                           {"harness_version", HarnessVersion()},
                           {"git_revision", GitRevision()}});
    size_t points = 0, elements = 0;
    for (const auto& path : FindCaseFiles(options.cases)) {
      const CaseFile case_file = LoadCaseFile(path);
      for (const TestPoint& point : ExpandCase(case_file, loaded.product)) {
        if (!point.expected.ok() || fnmatch(options.filter.c_str(), point.id.c_str(), 0) != 0) continue;
        const auto record = [&](const TestPoint& run, const std::string& id, bool with_inputs) {
          std::optional<PreparedPoint> prepared;
          GoldenValues inputs;
          if (with_inputs) {
            prepared = PreparePoint(run);
            inputs = GoldenInputsOf(run, *prepared).inputs;
          }
          CapturedOutputs captured;
          const TestPointResult result = ExecutePoint(run, session, context, prepared ? &*prepared : nullptr, &captured);
          DeviceOutputs outputs = captured.Decoded();
          if (outputs.empty()) return;  // nothing computed: no outputs to compare later
          GoldenPoint stored;
          stored.id = id;
          stored.op = &run.op();
          stored.case_path = run.case_file->path;
          stored.dtype = run.dtype;
          stored.plan = run.plan;
          stored.verdict = std::string(VerdictName(result.verdict));
          for (const auto& [name, values] : outputs) elements += values.size();
          stored.device = std::move(outputs);
          stored.inputs = std::move(inputs);
          writer.Add(stored);
          ++points;
        };
        record(point, point.id, options.with_inputs);
        for (int run = 0; run < options.recheck; ++run) {
          const FreshSeedPoint fresh = FreshSeedPointOf(point, run);
          record(fresh.point, RecheckPointId(point.id, run), true);
        }
      }
    }
    std::cout << "recorded " << points << " test points (" << elements << " output elements) of provider "
              << options.provider << " on " << loaded.soc << " in " << options.output << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace aclnn_check
