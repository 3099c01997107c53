// Between test points and golden data: a test point's inputs as the harness generates them, and
// a stored point turned back into a call the runner can make (contiguous tensors holding the
// stored inputs, outputs pre-filled like the runner's).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cases/test_point.h"
#include "golden/golden_file.h"
#include "runner/execute.h"

namespace aclnn_check {

// The product golden inputs are expanded on: A2 lists every operator (NsaCompressGrad is A2 only)
// and every floating dtype.
constexpr Product kGoldenProduct = Product::kA2;

// Whether a point belongs in golden data: the validation accepts it and the reference computes at
// least one output with elements (an oracle has nothing to say about the rest). Empty inputs are
// kept where an output has elements (LayerNorm's gradWeight over zero rows is zeros).
bool WorthAnOracle(const TestPoint& point, const PreparedPoint& prepared);

// The point's id, op, parameters, tensor plans and inputs (after derived inputs are recomputed).
GoldenPoint GoldenInputsOf(const TestPoint& point, const PreparedPoint& prepared);

// Every point of the case files (filtered by a glob on ids) worth an oracle, with its inputs;
// with recheck_runs > 0 also each point's first recheck_runs fresh-seed runs of `run --recheck`,
// under RecheckPointId, so that a recorded benchmark made from them serves the re-check.
std::vector<GoldenPoint> GenerateGoldenInputs(const std::vector<std::string>& cases,
                                              const std::string& filter, int recheck_runs = 0);
// The same points handed to `sink` one at a time, so a writer holds one point's inputs at once
// (200 fresh-seed runs of a 4 M element point are 13 GB as doubles).
void ForEachGoldenInput(const std::vector<std::string>& cases, const std::string& filter, int recheck_runs,
                        const std::function<void(const GoldenPoint&)>& sink);

// A stored point as a test point of its own: a one-point case file (path = the golden file) with
// the documented tolerances, contiguous layout, and the expectation of the operator's validation.
struct StoredTestPoint {
  std::unique_ptr<CaseFile> case_file;
  TestPoint point;
};
StoredTestPoint StoredTestPointOf(const GoldenPoint& stored, const std::string& golden_path,
                                  Product product);

// Host tensors holding the stored inputs; outputs filled with kOutputSentinel; no reference.
// Throws InputError when inputs are missing.
PreparedPoint PrepareStoredPoint(const GoldenPoint& stored, const std::string& golden_path);

}  // namespace aclnn_check
