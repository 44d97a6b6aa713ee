// The optimisation stage of the retarget pipeline: the re-timed kinematic reference handed to the
// B-spline trajectory problem (mimic::motion) with the job's objective, limits, knots and solver
// (pipeline::motion_settings).
#pragma once

#include <Eigen/Core>
#include <string>

#include "mimic/core/progress.hpp"
#include "mimic/io/job.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::pipeline {

struct OptimizedUpperBody {
  Eigen::MatrixXd joints;  // nj x samples at the reference's rate, model order
  std::string status;      // the solver's stopping reason
  int iterations = 0;
  double objective = 0.0;
  double torque_integral = 0.0;  // of the imitating joints (motion::MotionMetrics::active_torque_integral)
};

// `robot` carries the job's payload (load_robot). Throws InfeasibleError (naming the worst violated
// constraint) when the solver cannot satisfy the limits.
OptimizedUpperBody optimize_upper_body(const Robot& robot, const io::JobConfig& job,
                                       const retarget::ReferenceMotion& reference,
                                       const ProgressCallback& progress);

}  // namespace mimic::pipeline
