// The moves of a hunt (docs/hunt.md): how one provider call's inputs are made from the best
// inputs so far. Every element is a candidate: a call mutates many elements at once and the check
// judges every one of them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/tensor_view.h"
#include "hunt/boundary_values.h"
#include "hunt/hunt_random.h"

namespace aclnn_check {

// Which kinds of move a hunt makes. None at all is random sampling: every call draws fresh inputs
// from the case's distributions (the baseline a hunt is compared with).
struct MoveSet {
  bool bits = true;        // flip or set the exponent, flip a significand bit, of single elements
  bool boundaries = true;  // the dtype's and the operator's boundaries, and values beside them
  bool cancel = true;      // rows that cancel: mirrored rows, alternating large terms, offset rows
  bool any() const { return bits || boundaries || cancel; }
};
// "all", "random", or a comma list of bits, boundaries, cancel; nullopt for anything else.
std::optional<MoveSet> ParseMoveSet(const std::string& text);
std::string MoveSetName(const MoveSet& moves);

// One input tensor of the call as the hunt holds it: values of its dtype, in logical order.
struct HuntTensor {
  std::string name;
  DType dtype = DType::kFloat32;
  Dims shape;
  std::vector<double> values;
  Boundaries boundaries;
};

// Mutates the tensors in place with the enabled moves (moves.any() must hold).
void MutateInputs(std::vector<HuntTensor>& tensors, const MoveSet& moves, HuntRandom& random);

// The element moves alone, for tests: one element's value after a move of each kind.
double FlipExponent(double value, DType dtype, HuntRandom& random);
double FlipSignificand(double value, DType dtype, HuntRandom& random);
double BesideBoundary(double boundary, DType dtype, HuntRandom& random);

}  // namespace aclnn_check
