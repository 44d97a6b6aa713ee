// Sampled motions from sequence files: base reconstruction, finite differences, support detection.
#include "mimic/pipeline/read_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/spatial/rpy.hpp"
#include "mimic/stability/base_reconstruction.hpp"
#include "support/hrp2_robot.hpp"
#include "support/shared_data.hpp"

namespace {

using namespace mimic;

// The shared HRP-2 (support/hrp2_robot.hpp) and its half-sitting configuration.
struct Hrp2 {
  const model::Model& model = test::Hrp2Robot::instance().model;
  const stability::Feet& feet = test::Hrp2Robot::instance().feet;
  Eigen::VectorXd half_sitting = test::Hrp2Robot::instance().description.nominal_q(model);
};

// Half-sitting in every sample: the .pos columns are the model's joints (the description's joint_order).
io::MotionFiles still_motion(const Hrp2& r, int samples) {
  io::MotionFiles files;
  for (int k = 0; k < samples; ++k) files.pos.times.push_back(0.005 * k);
  files.pos.angles = r.half_sitting.tail(r.model.nj).transpose().replicate(samples, 1);
  return files;
}

TEST(SampledMotion, ReconstructedBaseOfHalfSittingIsTheNominalWaist) {
  Hrp2 r;
  const auto motion = pipeline::sampled_motion(r.model, r.feet, still_motion(r, 5));
  ASSERT_TRUE(motion.base_reconstructed);
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    // Waist height 0.648702 [S1] is reproduced by the URDF to 1e-6 (D1); the feet are flat, so the base
    // orientation is the identity up to rounding (measured 2e-7 m off 0.648702, 1.7e-18 elsewhere). The
    // finite differences of rounding-level wiggles: measured 2.2e-14 (v) and 4.4e-12 (a, over 2.5e-5 s^2).
    EXPECT_NEAR(motion.q(2, k), 0.648702, 2e-6);
    EXPECT_NEAR(motion.q(0, k), 0.0, 1e-12);
    EXPECT_NEAR(std::abs(motion.q(6, k)), 1.0, 1e-12);
    EXPECT_LT(motion.v.col(k).norm(), 1e-12);
    EXPECT_LT(motion.a.col(k).norm(), 1e-10);
    EXPECT_EQ(motion.phases[static_cast<std::size_t>(k)], model::ContactPhase::kDoubleSupport);
  }
}

TEST(SampledMotion, FiniteDifferencesAreSecondOrderOnNonUniformGrids) {
  Hrp2 r;
  // Joint 3 (right knee) follows q = 0.8 + 0.3 t^2 on a non-uniform grid: central differences of a
  // quadratic are exact, so only rounding remains: eps / h ~ 3e-14 for v and eps / h^2 ~ 1e-11 for a over
  // 3..7 ms steps (measured 6.3e-15 and 3.1e-12).
  std::vector<double> times = {0.0, 0.004, 0.01, 0.013, 0.02, 0.026};
  Eigen::MatrixXd q = r.half_sitting.replicate(1, static_cast<Eigen::Index>(times.size()));
  for (std::size_t k = 0; k < times.size(); ++k)
    q(r.model.idx_q(3), static_cast<Eigen::Index>(k)) = 0.8 + 0.3 * times[k] * times[k];
  Eigen::MatrixXd v, a;
  model::differentiate(r.model, times, q, v, a);
  for (std::size_t k = 1; k + 1 < times.size(); ++k) {
    EXPECT_NEAR(v(r.model.idx_v(3), static_cast<Eigen::Index>(k)), 0.6 * times[k], 1e-12);
    EXPECT_NEAR(a(r.model.idx_v(3), static_cast<Eigen::Index>(k)), 0.6, 1e-10);
  }
}

TEST(SampledMotion, SwingFootIsDetectedAndSupportFootStaysStillInReconstruction) {
  Hrp2 r;
  // Lift the left foot by bending the left knee and hip over 1 s; the right leg keeps half-sitting.
  io::MotionFiles files = still_motion(r, 201);
  for (int k = 0; k < 201; ++k) {
    const double s = std::pow(std::sin(M_PI * k / 200.0), 2);  // starts and ends at rest
    files.pos.angles(k, 8) += -0.3 * s;                        // LLEG_JOINT2 hip pitch
    files.pos.angles(k, 9) += 0.6 * s;                         // LLEG_JOINT3 knee
    files.pos.angles(k, 10) += -0.3 * s;                       // LLEG_JOINT4 ankle pitch keeps the sole level
  }
  const auto motion = pipeline::sampled_motion(r.model, r.feet, files);
  model::Data data(r.model);
  Eigen::Vector3d right0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    dynamics::forward_kinematics(r.model, data, motion.q.col(k));
    const auto& right = dynamics::update_frame_placement(r.model, data, r.feet.right_sole_frame);
    if (k == 0) right0 = right.p;
    EXPECT_LT((right.p - right0).norm(), 1e-9) << "right sole moved at sample " << k;
  }
  EXPECT_EQ(motion.phases[100], model::ContactPhase::kRightSupport);
  EXPECT_EQ(motion.phases[0], model::ContactPhase::kDoubleSupport);
}

// Stated phases (a job's `contacts:`) win over detection: a still stance, detected as double support, read
// with a left-support interval over its middle samples.
TEST(SampledMotion, IntervalsOverrideDetection) {
  const Hrp2 r;
  using enum model::ContactPhase;
  const io::MotionFiles files = still_motion(r, 5);  // t = 0, 0.005, ..., 0.02
  EXPECT_EQ(pipeline::sampled_motion(r.model, r.feet, files).phases,
            std::vector<model::ContactPhase>(5, kDoubleSupport));
  const auto motion = pipeline::sampled_motion(r.model, r.feet, files, {{0.005, 0.015, kLeftSupport}});
  EXPECT_EQ(motion.phases, (std::vector<model::ContactPhase>{kDoubleSupport, kLeftSupport, kLeftSupport,
                                                             kLeftSupport, kDoubleSupport}));
}

}  // namespace

// The shipped planned walk (mimic walk: feet flat on the ground in support, six steps, the waist lowered
// by 6 cm) without its .waist: the reconstruction from the support feet gives back the planned waist, up
// to a constant horizontal offset and rounding (measured 5e-16 m; 1e-9 leaves room for other compilers).
// Passing support on with the current sole placement instead of the previous one was off by the base's
// motion in one sample (0.6 mm per step), and a hysteresis of millimetres dragged the base along the
// lifting foot.
TEST(SampledMotion, ReconstructedBaseOfThePlannedWalkIsItsWaist) {
  Hrp2 r;
  const io::MotionFiles planned =
      io::read_motion(test::source_dir() / "data" / "motions" / "walk_bar_planned.pos");
  ASSERT_TRUE(planned.waist.has_value());
  const std::vector<spatial::SE3> poses =
      stability::reconstruct_base(r.model, r.feet, planned.pos.angles.transpose());
  // As .waist rows (x y z roll pitch yaw), the angles unwrapped like the file's.
  Eigen::MatrixXd base(planned.pos.size(), 6);
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  for (Eigen::Index k = 0; k < base.rows(); ++k) {
    const spatial::SE3& pose = poses[static_cast<std::size_t>(k)];
    rpy = k == 0 ? spatial::rotation_to_rpy(pose.R) : spatial::rotation_to_rpy(pose.R, rpy);
    base.row(k) << pose.p.transpose(), rpy.transpose();
  }
  // The reconstruction stands the first base above the world origin; the plan's world is shifted
  // horizontally from it by a constant.
  Eigen::RowVector3d offset = planned.waist->position.row(0) - base.row(0).head<3>();
  offset.z() = 0.0;
  EXPECT_NEAR(base(0, 2), planned.waist->position(0, 2), 1e-9);
  double position_error = 0.0, angle_error = 0.0;
  Eigen::Index worst = 0;
  for (Eigen::Index k = 0; k < base.rows(); ++k) {
    const double e = (base.row(k).head<3>() + offset - planned.waist->position.row(k)).norm();
    if (e > position_error) worst = k;
    position_error = std::max(position_error, e);
    angle_error =
        std::max(angle_error, (base.row(k).tail<3>() - planned.waist->rpy.row(k)).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(position_error, 1e-9) << "worst at t = " << planned.pos.times[static_cast<std::size_t>(worst)];
  EXPECT_LT(angle_error, 1e-9);
}
