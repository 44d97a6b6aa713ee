// What `mimic smooth` measures on a motion, before and after: the integral of tau^T tau, the peak torque
// of every joint, and (through evaluation::check_motion, exactly as `mimic check` does) the limits, the ZMP
// margin and the support-foot slip. Everything is computed on the sampled motion as it is (or would be)
// written: velocities and accelerations by finite differences (model::differentiate), torques with the
// ground reaction of seed 001 III-C (stability::joint_torques_with_ground_reaction).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/evaluation/check.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::evaluation {

struct MotionEvaluation {
  // Trapezoidal integral over the samples of tau^T tau, all 30 joints, N^2 m^2 s.
  double torque_integral = 0.0;
  Eigen::VectorXd peak_torque;       // nj: max |tau_j| over the samples, N m
  Eigen::VectorXd peak_torque_time;  // nj: s
  CheckReport check;                 // limits, ZMP margin, slip (as `mimic check`)
};

MotionEvaluation evaluate_motion(const model::Model& model, const stability::Feet& feet,
                                 const model::SampledMotion& motion, const CheckOptions& options);

}  // namespace mimic::evaluation
