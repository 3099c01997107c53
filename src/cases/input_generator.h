// Deterministic input data: a counter-based generator keyed by (seed, test point id, tensor name),
// so a test point gets the same data alone, in any order, in any shard, on any machine.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "cases/case_file.h"
#include "cases/special_value.h"
#include "core/hashing.h"
#include "core/tensor_view.h"

namespace aclnn_check {

class CounterRandom {
 public:
  CounterRandom(uint64_t seed, std::string_view test_point_id, std::string_view tensor);
  // 64 random bits for this counter. Inline: a large point draws one per element.
  uint64_t Bits(uint64_t counter) const {
    return SplitMix64Finalize(key_ + SplitMix64(counter));
  }
  // In [0, 1), 53 bits.
  double Uniform(uint64_t counter) const {
    return static_cast<double>(Bits(counter) >> 11) * 0x1p-53;
  }
  double Normal(uint64_t counter) const;  // standard normal (Box-Muller on two counters)

  uint64_t key() const { return key_; }  // for the vector draw (cases/uniform_block.h)

 private:
  uint64_t key_;
};

// numel values of the distribution (with CANN's rules of standard_distributions.h where the spec
// names them), specials injected at deterministic positions, each value
// rounded to ctx.dtype. exhaustive16 walks every 16-bit pattern of fp16/bf16 (for float32: every
// bf16 value, widened). rsqrt_uniform gives 1/sqrt(u + offset), u uniform in [low, high): the rstd
// of a kernel that draws the variance u and adds eps itself (LayerNormGrad).
std::vector<double> GenerateValues(const InputSpec& spec, int64_t numel, const CounterRandom& random,
                                   const SpecialContext& ctx);
// The same values written into a view (logical order), each encoded once: contiguous floating
// views block by block over the harness's threads, without the whole tensor as doubles.
void GenerateInto(const InputSpec& spec, const TensorView& view, const CounterRandom& random,
                  const SpecialContext& ctx);

}  // namespace aclnn_check
