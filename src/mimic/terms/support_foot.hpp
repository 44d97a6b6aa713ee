// Support foot (seed 001 problem (11)): a sole frame held at its planned placement,
//   u = (p_sole - p_ref, log3(R_ref^T R_sole)),  m and rad, six rows (position x, y, z, rotation x, y, z),
// either as residual rows (a stiff penalty) or as equality rows, with a per-row scale for each half (the
// penalty weights, or the equalities' units: 1 / 1 mm and 1 / 1 mrad in the smoothing problem).
// Values from model::Data (kKinematics); partials from the derivative pass (kPlacementDerivatives,
// dynamics/frame_derivatives.hpp), q only.
#pragma once

#include <vector>

#include "mimic/spatial/se3.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

class SupportFoot : public Term {
 public:
  // `frame`: the sole frame; `references`: its planned placement at each sample (read at index n);
  // `kind`: kResidual or kEquality; the scales multiply the position and the rotation rows.
  SupportFoot(const model::Model& model, int frame, std::vector<spatial::SE3> references, RowKind kind,
              double position_scale, double rotation_scale);

  std::unique_ptr<TermData> create_data() const override;
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

 private:
  int frame_;
  std::vector<spatial::SE3> references_;
};

}  // namespace mimic::terms
