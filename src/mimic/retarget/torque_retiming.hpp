// Re-timing within the torque limits, after Algorithm 1 (time_reparameterization.hpp) has re-timed a
// reference within the velocity limits. Algorithm 1 alone suffices for HRP-2, whose URDF velocity limits
// are the real motors' (a few rad/s). A robot whose URDF gives loose velocity limits (Unitree G1: 20 to 37
// rad/s) is barely slowed by it (boxing.bvh x1.02), and a punch captured from a human then asks the
// accelerations of a human arm of a 35 N m waist: more torque than any deformation of the motion near the
// imitation can give back.
//
// So the reference's own torques are measured: at every source sample, inverse dynamics with the base
// fixed (the legs are planted later; their support is the ZMP stage's business) on the re-timed motion's
// velocities and accelerations, taken as central differences over +-kWindow (the scale a 0.1 s knot spline
// resolves, not the 120 Hz finite differences, which are noise). Slowing a stretch of the motion down by a
// factor s divides its velocity-dependent and acceleration torques by s^2 and leaves gravity as it is, so a
// sample whose joint j asks tau_dyn = tau - tau_gravity needs s^2 >= |tau_dyn| / (scale * limit - |tau_g|).
// The intervals around such samples are lengthened by whole source periods (the unit of Algorithm 1) and
// the measure repeated until every sample holds, so the motion is slowed only where it is too strong, as
// Algorithm 1 slows it only where it is too fast. A joint whose gravity torque alone exceeds the scaled
// limit cannot be helped by time: it is left to the optimisation (and reported by the check).
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"
#include "mimic/retarget/time_reparameterization.hpp"

namespace mimic::retarget {

struct TorqueRetiming {
  int passes = 0;                  // lengthening passes (0: Algorithm 1's timing already held)
  double peak_ratio_before = 0.0;  // max over samples and joints of |tau_dyn| / (scale * limit - |tau_g|)
  double peak_ratio = 0.0;         // the same after the passes (<= 1 unless kMaxPasses ran out)
  std::string peak_joint;          // the joint of peak_ratio_before
};

// Half the window of the central differences (s).
inline constexpr double kTorqueRetimingWindow = 0.05;

// `q`: the reference's configurations (nq x N, free-flyer model), one per source sample of `timing`
// (Algorithm 1's result, changed in place: interval_steps and times). `torque_scale` in (0, 1]: the
// fraction of the URDF effort limits the reference may ask; joints without a positive finite limit are not
// bounded. Throws std::invalid_argument on mismatched sizes or a scale outside (0, 1].
TorqueRetiming limit_torques(const model::Model& model, const Eigen::MatrixXd& q, double torque_scale,
                             RetimedSamples& timing);

}  // namespace mimic::retarget
