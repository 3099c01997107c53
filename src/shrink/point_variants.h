// The moves of `aclnn-check shrink` (docs/shrink.md): a test point written as a case file of its
// own, how large it is, and the smaller variants of it, as case-file documents.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/test_point.h"

namespace aclnn_check {

// Compared in this order: a point with fewer elements is smaller whatever its specials, rank or
// layout.
struct PointSize {
  int64_t elements = 0;  // over all tensors of the call, outputs included
  int64_t specials = 0;  // special values over the case's inputs
  int64_t rank = 0;      // sum of the tensors' ranks
  int strided = 0;       // 1 for a layout other than contiguous

  auto operator<=>(const PointSize&) const = default;
};
PointSize SizeOf(const TestPoint& point);

// The case file of exactly this point of the case document: every axis at the point's value and
// the point's layout, the rest of the case (name, inputs, tolerances, expectation, products,
// seed) unchanged, so the point keeps its id and with it its data.
nlohmann::json SinglePointDocument(const nlohmann::json& case_document, const TestPoint& point);

// Variants of a one-point case file, each one move away, in the order they are tried:
// halved dims (all at once, then one at a time) and halved positive integer axes, one dim
// fewer (lower rank), an input without its specials (all, then one at a time), the contiguous
// layout, and last smaller steps down of each dim and positive integer axis (a quarter, an eighth,
// ..., one). An axis whose value
// is an array of non-negative integers counts as dims (shapes, and other integer lists; a
// variant that the operator cannot plan or whose documented outcome changes is dropped when it
// is expanded). Variants equal to the document or to an earlier variant are left out.
std::vector<nlohmann::json> SmallerVariants(const nlohmann::json& single_point_document);

}  // namespace aclnn_check
