// Sole clearance (issue 13): one inequality row per listed sole corner of the collision model, height
// h >= 0 above the floor z = 0, as the one-sided row
//   u = h - c  (m),  lower = -c,  upper = +infinity,  c = kHeightUnit,
// whose lower bound is h >= 0, normalised by a centimetre (the scale of the self-collision safety
// distance). No upper bound: the problems then store the lower bound's row only (spline_problem.hpp); a
// finite ceiling no sole reaches, as this term had, cost the bar walk's smoothing a never-active row per
// corner and sample.
//
// Values from the body placements (kKinematics); partials from the world axes of the derivative pass
// (kPlacementDerivatives), q only: e_z . (v_c + w_c x p) on the columns that move the foot.
//
// The swing sole's orientation bound (the "keeps its planned orientation") is not here: it reads
// a planned orientation per sample, applies to the swing foot only (one TermSum per contact phase), and
// its rows are angles, whereas these rows hold at every sample for both feet and need no reference.
#pragma once

#include <memory>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

class SoleClearance : public Term {
 public:
  static constexpr double kHeightUnit = 0.01;  // m

  // `corners`: indices into cmodel->corners (at least one, no repeats). `cmodel` must be built on `model`.
  SoleClearance(const model::Model& model, std::shared_ptr<const geometry::CollisionModel> cmodel,
                std::vector<int> corners);

  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

 private:
  std::shared_ptr<const geometry::CollisionModel> cmodel_;
  std::vector<int> corners_;
};

}  // namespace mimic::terms
