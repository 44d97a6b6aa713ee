// Swing sole orientation (issue 13): the sole of a foot in the air keeps its planned orientation within a
// bound, so that it comes down flat (the planned walk's feet are flat; a torque optimum left free pitches
// the swing foot toe-down until a toe corner goes through the floor). Two inequality rows, the tilt:
//   u = (e_x, e_y),  e = log3(R_planned^T R_sole)  (rad),  lower = -max_tilt,  upper = max_tilt,
// the roll and pitch of the sole about the planned sole's own x (forward) and y (left) axes. Those are
// what tilt the sole plane (a corner goes down by half the sole's length times the pitch); the yaw e_z
// turns the sole in its own plane, lowers no corner, and is left free: a bound on it would only take
// freedom from the torque optimum (the feet's distance to each other is the self-collision rows' business).
// The bound applies to each component, so the sole normal turns by at most sqrt(2) max_tilt; for small
// angles e_x and e_y are the roll and pitch of any Euler convention to second order.
//
// Values from model::Data (kKinematics); partials from the derivative pass (kPlacementDerivatives,
// dynamics/frame_derivatives.hpp, as terms/support_foot.hpp), q only. The planned orientation is read per
// sample (index n), like SupportFoot's planned placement.
#pragma once

#include <vector>

#include "mimic/spatial/se3.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

class SwingSoleOrientation : public Term {
 public:
  // `frame`: the sole frame; `planned`: its planned world orientation at each sample; `max_tilt` > 0, rad.
  SwingSoleOrientation(const model::Model& model, int frame, std::vector<spatial::Mat3> planned,
                       double max_tilt);

  std::unique_ptr<TermData> create_data() const override;
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

  double max_tilt() const { return upper_[0]; }

 private:
  int frame_;
  std::vector<spatial::Mat3> planned_;
};

}  // namespace mimic::terms
