// CANN's ATK case lists (ops-nn `tests/st/aclnn<Op>/atk_aclnn<Op>.json`): a JSON array of cases,
// each with aclnn_name, id, inputs (tensors with dtype fp16/bf16/fp32, shape, range_values as a
// [low, high] list or an interval string such as "(0, 1)", outlier_values, align_32B; attributes
// with a one-value list or a [low, high] range) and standard {acc, perf}.
#pragma once

#include <string>
#include <vector>

#include "import/source_case.h"

namespace aclnn_check {

// Cases that cannot be expressed go to skipped; a structure that is not an ATK case list throws
// InputError(path, JSON pointer, what was expected).
std::vector<SourceCase> ReadAtkJson(const std::string& text, const std::string& path,
                                    std::vector<SkippedCase>* skipped);

// Whether text is a JSON array whose first element has an aclnn_name.
bool LooksLikeAtkJson(const std::string& text);

// "(0, 1)", "[0, 1)", "(-inf, 0]": brackets include the bound, parentheses exclude it; nullopt
// when text is not an interval.
std::optional<ValueRange> ParseInterval(const std::string& text);

}  // namespace aclnn_check
