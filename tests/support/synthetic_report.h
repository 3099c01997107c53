// A report.json made up in memory, shaped like the reports of the five operators (their outputs,
// inputs, id patterns, rules and metrics), for tests of the report writers at sizes no quick run
// reaches.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/rule_ids.h"

namespace aclnn_check::testing {

struct SyntheticOperator {
  const char* name;
  const char* case_name;
  std::vector<const char*> outputs;
  std::vector<const char*> inputs;
  const char* axes;  // the id part between dtype and layout
};

inline const std::vector<SyntheticOperator>& SyntheticOperators() {
  static const std::vector<SyntheticOperator> operators = {
      {"HardswishBackward", "hardswish_shapes", {"out"}, {"gradOutput", "self"}, "shape=3x65x7"},
      {"LogitGrad", "logit_grad_eps_table", {"gradInput"}, {"gradOutput", "x"}, "shape=1024/eps=1e-06"},
      {"SwiGluGrad", "swi_glu_grad_shapes", {"gradX"}, {"gradOutput", "x"}, "x_shape=16x256/dim=-1"},
      {"NsaCompressGrad", "nsa_compress_grad_shapes", {"keyGrad", "valueGrad"},
       {"outputGrad", "key", "value", "weight"}, "act_seq_len=64,128/heads=4/head_dim=128/block_size=32/stride=16"},
      {"LayerNormBackward", "layer_norm_backward_shapes", {"gradInput", "gradWeight", "gradBias"},
       {"gradOut", "input", "mean", "rstd", "weight"},
       "input_shape=16x256/normalized_rank=1/weight=given/bias=given/output_mask=1,1,1/stat_dtype=float32"},
  };
  return operators;
}

// Deterministic numbers in (-1, 1) with a varied number of digits, like real inputs and errors.
inline double SyntheticValue(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ULL;
  key ^= key >> 33;
  return static_cast<double>(key >> 11) / static_cast<double>(1ULL << 53) * 2 - 1;
}

// `points` test points over the five operators and three dtypes; every `fail_every`-th fails on
// the element bound (0: none fails).
inline nlohmann::json SyntheticReport(size_t points, size_t fail_every = 20) {
  using nlohmann::json;
  static const char* kDtypes[] = {"float16", "bfloat16", "float32"};
  static const char* kLayouts[] = {"contiguous", "offset:1", "strided:2", "transposed"};
  json test_points = json::array();
  size_t failed = 0;
  for (size_t i = 0; i < points; ++i) {
    const SyntheticOperator& op = SyntheticOperators()[i % SyntheticOperators().size()];
    const std::string dtype = kDtypes[i / 5 % 3];
    const bool fails = fail_every && i % fail_every == fail_every - 1;
    failed += fails;
    const std::string id = std::string(op.case_name) + "/dtype=" + dtype + "/" + op.axes + "/seed=" +
                           std::to_string(i) + "/layout=" + kLayouts[i / 15 % 4];
    json outputs = json::array();
    for (size_t o = 0; o < op.outputs.size(); ++o) {
      const uint64_t key = i * 16 + o;
      const double ulp = fails && o == 0 ? 40 + 1000 * std::abs(SyntheticValue(key)) : std::abs(SyntheticValue(key)) * 1.5;
      json inputs = json::object();
      for (size_t k = 0; k < op.inputs.size(); ++k) inputs[op.inputs[k]] = 4 * SyntheticValue(key * 31 + k);
      const double reference = SyntheticValue(key * 7);
      outputs.push_back(
          {{"name", op.outputs[o]},
           {"dtype", dtype},
           {"metrics",
            {{"elements", 4096}, {"finite_elements", 4096}, {"failures", fails && o == 0 ? 3 : 0},
             {"max_ulp", ulp}, {"mean_ulp", ulp / 9}, {"ulp_histogram", {{"0", 3900}, {"1", 180}, {"2", 10},
             {"3-4", 3}, {"5-8", 0}, {"9-16", 0}, {">16", fails && o == 0 ? 3 : 0}}},
             {"max_rel", ulp * 1e-3}, {"mean_rel", ulp * 1e-4}, {"rmse", ulp * 1e-4}, {"error_balance", 1e-6},
             {"within_1e-3", 0.998}, {"underflow_accepted", 0}, {"rounding_bias", -0.01}}},
           {"worst",
            {{"index", static_cast<int64_t>(key % 4096)}, {"device", reference * (1 + ulp * 1e-3)},
             {"reference", reference}, {"ulp_error", ulp}, {"rule", rule_ids::kElementBound},
             {"passed", !(fails && o == 0)}, {"inputs", inputs}}}});
    }
    json rules = json::array();
    for (const char* rule : {rule_ids::kStatus, rule_ids::kInputsUnchanged, rule_ids::kWritesInsideView,
                             rule_ids::kElementBound, rule_ids::kRoundingBias, rule_ids::kUnderflow}) {
      const bool broken = fails && std::string(rule) == rule_ids::kElementBound;
      rules.push_back({{"id", rule}, {"held", !broken}, {"waived", false}, {"elements", 4096}});
    }
    json failures = json::array();
    if (fails) {
      failures.push_back({{"rule", rule_ids::kElementBound},
                          {"message", std::string(op.outputs[0]) + ": 3 of 4096 elements exceed the bound, first at [17]"}});
    }
    const std::string case_file = std::string("cases/") + op.case_name + ".json";
    test_points.push_back(
        {{"id", id}, {"case", op.case_name}, {"case_file", case_file}, {"op", op.name}, {"dtype", dtype},
         {"layout", kLayouts[i / 15 % 4]}, {"axes", {{"dtype", dtype}}}, {"verdict", fails ? "failed" : "passed"},
         {"expected_status", 0}, {"expected_rule", ""}, {"accepted_statuses", {0}}, {"status", 0},
         {"execute_status", 0}, {"provider_message", ""}, {"workspace_bytes", 0}, {"seconds", 0.004},
         {"repro", "aclnn-check run --provider cpu --soc Ascend910B3 '" + case_file + "' --filter '" + id + "'"},
         {"failures", failures}, {"rules", rules}, {"outputs", outputs}});
  }
  json coverage = json::array();
  for (const char* rule : {rule_ids::kStatus, rule_ids::kElementBound, rule_ids::kRoundingBias, "hardswish.at_plus3"}) {
    coverage.push_back({{"id", rule}, {"op", ""}, {"kind", "generic"}, {"description", "a rule"},
                        {"applied", points}, {"held", points - failed}, {"waived", false},
                        {"cases", {"hardswish_shapes"}}});
  }
  return {{"schema_version", 1},
          {"tool", {{"name", "aclnn-check"}, {"version", "0.1.0"}}},
          {"run",
           {{"provider", {{"spec", "cpu"}, {"libraries", {{{"path", "build/bin/libaclnn_cpu.so"}, {"sha256", std::string(64, 'a')}}}}}},
            {"soc", "Ascend910B3"}, {"product", "A2"}, {"host", "synthetic"}, {"git_revision", "0123456789ab"},
            {"started", "2026-01-02T03:04:05Z"}, {"duration_seconds", 12.5},
            {"command", "aclnn-check run cases"}, {"filter", "*"}, {"shard", "1/1"}, {"jobs", 2},
            {"require_all", false}, {"overrides", json::array()}}},
          {"totals", {{"test_points", points}, {"passed", points - failed}, {"failed", failed},
                      {"not_provided", 0}, {"errors", 0}}},
          {"case_files", json::array()},
          {"rule_coverage", coverage},
          {"test_points", test_points}};
}

}  // namespace aclnn_check::testing
