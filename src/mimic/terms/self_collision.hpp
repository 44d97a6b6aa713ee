// Self-collision (issue 13): one inequality row per listed pair of the collision model, distance >= the
// safety distance d_s, as the one-sided row
//   u = d - 2 d_s  (m),  lower = -d_s,  upper = +infinity,
// whose lower bound is d >= d_s, normalised by the safety distance (the solvers' feasibility tolerance is
// a fraction of it). No upper bound: the problems then store the lower bound's row only
// (spline_problem.hpp); the finite bound this term had, the robot's span (geometry::robot_span), which no
// pair can reach, cost a never-active row per pair and sample. The problems carry only the pairs that can
// come near (geometry::compute_near_distance_gradients screens them), hence the explicit pair list.
//
// Values from the body placements (kKinematics); partials from the world axes of the derivative pass
// (kPlacementDerivatives), q only: n . (J_p1 - J_p2) on the columns that move one shape and not the other
// (geometry/distances.hpp). Where the closest points are not unique the row is a sub-gradient.
#pragma once

#include <memory>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

class SelfCollision : public Term {
 public:
  // `pairs`: indices into cmodel->pairs (at least one, no repeats); `safety_distance` > 0, m. `cmodel`
  // must be built on `model`.
  SelfCollision(const model::Model& model, std::shared_ptr<const geometry::CollisionModel> cmodel,
                std::vector<int> pairs, double safety_distance);

  std::unique_ptr<TermData> create_data() const override;
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

  const std::vector<int>& pairs() const { return pairs_; }
  double safety_distance() const { return safety_distance_; }

 private:
  std::shared_ptr<const geometry::CollisionModel> cmodel_;
  std::vector<int> pairs_;
  double safety_distance_;
};

}  // namespace mimic::terms
