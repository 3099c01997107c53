// The product/dtype matrix checks (docs/contract/products.md): for each operator of a run and each
// floating dtype the product does not list, one call that must be rejected with 161002.
#pragma once

#include <memory>
#include <set>
#include <vector>

#include "cases/case_file.h"
#include "core/product.h"

namespace aclnn_check {

// Synthesised case files, path "<matrix>", one per operator that lacks a dtype on the product.
std::vector<std::unique_ptr<CaseFile>> MatrixCases(const std::set<const Operator*>& operators,
                                                   Product product);

// True for a case file made by MatrixCases; its points get the id "matrix/<op>/dtype=<dtype>".
bool IsMatrixCase(const CaseFile& case_file);

}  // namespace aclnn_check
