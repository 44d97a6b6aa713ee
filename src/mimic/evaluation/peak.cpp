#include "mimic/evaluation/peak.hpp"

namespace mimic::evaluation {

const Peak& worst(const std::vector<Peak>& peaks) {
  static const Peak none;
  const Peak* out = &none;
  for (const Peak& p : peaks)
    if (p.ratio >= out->ratio) out = &p;
  return *out;
}

}  // namespace mimic::evaluation
