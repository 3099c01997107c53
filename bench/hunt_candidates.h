// `aclnn-check hunt`'s throughput beside the default suite's (docs/hunt.md): for each operator
// on the product, at its default point and first supported dtype, candidates (output elements)
// judged per second by a hunt, isolated as the command runs it and in this process, and the
// elements per second that `run` judges over the operator's default case files. Names:
// hunt_<folder>/<dtype>/<hunt_isolated|hunt_in_process|suite_elements>.
#pragma once

#include <string>

#include "core/product.h"

namespace aclnn_check::bench {

void RegisterHuntCandidates(const std::string& provider, Product product,
                            const std::string& cases_root);

}  // namespace aclnn_check::bench
