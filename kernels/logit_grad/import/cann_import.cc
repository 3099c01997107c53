// LogitGrad's CANN case import (docs/contract/case-files.md): ST CSV rows of kernel logit_grad and
// ATK cases of aclnnLogitGrad onto cases/logit_grad axes. Compiled into the import layer
// (src/import).
#include <cmath>
#include <span>

#include "import/case_mapping_builder.h"
#include "cases/input_generator.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json LogitGrad(Mapping& m) {
  m.NameInputsByPosition({"x", "dy"});
  const SourceTensor& x = m.Input({"x"});
  const SourceTensor& dy = m.Input({"dy"});
  double eps = -1;  // logit_grad's prototype default
  if (const SourceAttribute* attribute = m.Attribute("eps")) {
    if (attribute->range) {
      // ATK draws a scalar attribute from its range; one reproducible draw per case.
      const ValueRange& r = *attribute->range;
      if (!std::isfinite(r.low) || !std::isfinite(r.high)) {
        throw NotExpressible(attribute->column, "an unbounded eps range");
      }
      const CounterRandom random(0, m.source().file.substr(m.source().file.rfind('/') + 1) + " " + m.source().location, "eps");
      uint64_t counter = 0;
      do {
        eps = r.low + (r.high - r.low) * random.Uniform(counter++);
      } while (r.low < r.high && counter < 16 && ((r.low_open && eps <= r.low) || (r.high_open && eps >= r.high)));
      m.Note("eps drawn from the source's range [" + json(r.low).dump() + ", " + json(r.high).dump() + "]");
    } else if (attribute->value.is_number()) {
      eps = attribute->value.get<double>();
    } else {
      throw NotExpressible(attribute->column, "eps must be a number, got " + attribute->value.dump());
    }
  } else {
    m.Note("eps absent: the kernel's default -1");
  }
  m.Axis("dtype", x.dtype);
  m.Axis("shape", x.shape);
  m.Axis("eps", eps);
  m.Expect("dy", &dy, x.dtype, x.shape);
  m.Expect("out", m.Output(0), x.dtype, x.shape);
  m.Distribution("x", x);
  m.Distribution("dy", dy);
  m.CloseTolerance({"out"});
  return m.Build("LogitGrad");
}

const CannOperatorName kNames[] = {
    {"logit_grad", LogitGrad},
    {"aclnnLogitGrad", LogitGrad},
};

}  // namespace

std::span<const CannOperatorName> CannImportNames_logit_grad() { return kNames; }

}  // namespace aclnn_check
