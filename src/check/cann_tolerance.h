// The tolerance a CANN case file came with, kept beside aclnn-check's own element bound so a
// report shows both verdicts (docs/decisions.md, "CANN tolerances"):
//  - ttk_close (ST CSV): np.isclose(device, golden, rtol, atol, equal_nan=True) per element; the
//    output passes when the share of elements that are not close is at most ptol.
//  - single_bm (ATK "standard": {"acc": "single_bm"}): relative error
//    RE = |device - golden| / (|golden| + 1e-7) over finite golden elements; the output passes
//    when MERE = mean(RE) < T and MARE = max(RE) < 10 T, T = 2^-13 (float32), 2^-10 (float16),
//    2^-7 (bfloat16); non-finite golden elements must be matched exactly.
// golden is the harness's float64 reference rounded to the output dtype, as CANN's golden files
// are stored in the output dtype. The CANN verdict never changes the test point's own verdict.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "check/precision_standard.h"
#include "core/block_values.h"
#include "core/dtype.h"

namespace aclnn_check {

struct CannCloseTolerance {
  double rtol = 0;
  double atol = 0;
  double ptol = 0;  // largest share of elements allowed to be not close
};

struct CannTolerance {
  std::string standard;  // "ttk_close" or "single_bm"
  std::string source;    // where the criterion came from, e.g. "x.csv row 3"
  std::map<std::string, CannCloseTolerance> close;  // ttk_close: per output; unlisted outputs are not judged
};

struct CannOutputVerdict {
  std::string output;
  bool passed = true;
  int64_t elements = 0;
  int64_t mismatches = 0;  // ttk_close: elements not close; single_bm: unmatched special values
  // ttk_close
  CannCloseTolerance close;
  double mismatch_share = 0;
  // single_bm
  double mere = 0;
  double mare = 0;
  double threshold = 0;
};

// Judges one output; false when the criterion does not cover this output (ttk_close without an
// entry for it).
bool JudgeCannTolerance(const CannTolerance& tolerance, const std::string& output,
                        std::span<const double> device, std::span<const double> reference,
                        DType out, CannOutputVerdict* verdict);
// The same for device values read a block at a time (a downloaded output decoded on demand).
bool JudgeCannTolerance(const CannTolerance& tolerance, const std::string& output,
                        const BlockValues& device, std::span<const double> reference, DType out,
                        CannOutputVerdict* verdict);

}  // namespace aclnn_check
