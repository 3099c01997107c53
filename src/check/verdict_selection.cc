#include "check/verdict_selection.h"

#include <stdexcept>

namespace aclnn_check {

std::string VerdictSelection::ToString() const {
  std::string text;
  const auto add = [&](const std::string& word) { text += (text.empty() ? "" : ",") + word; };
  if (element) add("element");
  if (single_bm) add("single_bm");
  if (double_bm) add("double_bm:" + std::string(LevelName(*double_bm)));
  return text;
}

VerdictSelection ParseVerdicts(const std::vector<std::string>& words) {
  VerdictSelection selection;
  selection.element = false;
  bool any = false;
  for (const std::string& listed : words) {
    size_t start = 0;
    while (start <= listed.size()) {
      const size_t comma = listed.find(',', start);
      const std::string word = listed.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      start = comma == std::string::npos ? listed.size() + 1 : comma + 1;
      any = true;
      if (word == "element") {
        selection.element = true;
      } else if (word == "single_bm") {
        selection.single_bm = true;
      } else if (word.rfind("double_bm:", 0) == 0 && ParseLevel(word.substr(10))) {
        const DoubleBenchmarkLevel level = *ParseLevel(word.substr(10));
        if (selection.double_bm && *selection.double_bm != level) {
          throw std::invalid_argument("verdict '" + word + "': the double benchmark is named at two levels");
        }
        selection.double_bm = level;
      } else {
        throw std::invalid_argument("verdict '" + word +
                                    "': expected element, single_bm or double_bm:L0, double_bm:L1, double_bm:L2");
      }
    }
  }
  if (!any) throw std::invalid_argument("verdict: expected at least one of element, single_bm, double_bm:L0|L1|L2");
  return selection;
}

}  // namespace aclnn_check
