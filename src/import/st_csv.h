// CANN's ST case tables (ops-nn `tests/st/*/ttk_kernel_<op>_st.csv`): one kernel test case per
// row, cells written as Python literals. Columns read: testcase_name, op_name, input_shapes
// (input_ori_shapes when absent), input_dtypes, output_shapes, output_dtypes, input_formats,
// output_formats, input_ori_shapes, output_ori_shapes, attributes, input_data_ranges,
// precision_tolerances, absolute_precision, is_enabled, soc_series, output_inplace_indexes,
// manual_input_binaries, manual_golden_binaries; the others (network_name, remark, priority,
// dump_file_prefix, output_shape_unknown_indexes) say nothing about the computation.
#pragma once

#include <string>
#include <vector>

#include "import/source_case.h"

namespace aclnn_check {

// Rows that cannot be expressed (disabled, not ND, manual binaries, ...) go to skipped; a cell
// that is not what its column needs throws InputError(path, "line N, column C", what was expected).
std::vector<SourceCase> ReadStCsv(const std::string& text, const std::string& path,
                                  std::vector<SkippedCase>* skipped);

// Whether text looks like an ST case table: a CSV header naming op_name and input_shapes or
// input_ori_shapes.
bool LooksLikeStCsv(const std::string& text);

}  // namespace aclnn_check
