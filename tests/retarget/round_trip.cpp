// Retargeting a skeleton that has HRP-2's proportions and is driven by known robot joint angles must give
// those angles back; a global yaw or translation of the clip must not change the result; a target moving
// past a joint limit or through a singular arm pose must not make the solution jump.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/reference_motion.hpp"
#include "retarget/robot_skeleton.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

struct Fixture : ::testing::Test {
  model::Robot robot =
      model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string());
  const model::Model& model = robot.model;
  const model::RobotDescription& description = robot.description;
  Eigen::VectorXd rest = description.nominal_q(model);
  UpperBodyIk ik{model, description};

  // The reference's joint angles as frames x nj, the layout of the clip's frames.
  Eigen::MatrixXd joint_rows(const ReferenceMotion& motion) const {
    return motion.motion.q.bottomRows(model.nj).transpose();
  }
  spatial::SE3 waist(const ReferenceMotion& motion, int f) const {
    return model::base_pose(model, motion.motion.q.col(f));
  }
};

// Smooth angles for the 16 upper-body joints inside ranges that keep every joint observable from the
// landmarks (elbows and wrists bent, shoulder roll away from its gimbal singularity at -90 deg) and away
// from the limit-avoidance band; the other joints hold half-sitting.
Eigen::MatrixXd driving_angles(const model::Model& model, const Eigen::VectorXd& rest, int frames,
                               double rate) {
  struct Range {
    const char* joint;
    double lo, hi, hz;
  };
  const Range ranges[] = {
      {"CHEST_JOINT0", -0.5, 0.5, 0.23}, {"CHEST_JOINT1", 0.05, 0.8, 0.31}, {"HEAD_JOINT0", -0.5, 0.5, 0.41},
      {"HEAD_JOINT1", -0.3, 0.5, 0.37},  {"RARM_JOINT0", -1.8, 0.5, 0.29},  {"RARM_JOINT1", -1.1, -0.1, 0.43},
      {"RARM_JOINT2", -0.8, 0.8, 0.53},  {"RARM_JOINT3", -1.8, -0.4, 0.47}, {"RARM_JOINT4", -0.8, 0.8, 0.61},
      {"RARM_JOINT5", 0.3, 1.0, 0.67},   {"LARM_JOINT0", -1.8, 0.5, 0.34},  {"LARM_JOINT1", 0.1, 1.1, 0.39},
      {"LARM_JOINT2", -0.8, 0.8, 0.57},  {"LARM_JOINT3", -1.8, -0.4, 0.44}, {"LARM_JOINT4", -0.8, 0.8, 0.59},
      {"LARM_JOINT5", -1.0, -0.3, 0.71},
  };
  Eigen::MatrixXd q(frames, model.nj);
  for (int f = 0; f < frames; ++f) {
    q.row(f) = rest.tail(model.nj).transpose();
    const double t = f / rate;
    for (const Range& r : ranges) {
      q(f, model.joint_index(r.joint)) =
          r.lo + (r.hi - r.lo) * (0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * r.hz * t + 1.0));
    }
  }
  return q;
}

double rms_upper_body_error(const UpperBodyIk& ik, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  double sum = 0.0;
  for (int j : ik.variables()) sum += (a.col(j) - b.col(j)).squaredNorm();
  return std::sqrt(sum / (static_cast<double>(a.rows()) * static_cast<double>(ik.variables().size())));
}

TEST_F(Fixture, SkeletonWithRobotProportionsGivesBackTheDrivingAngles) {
  const double rate = 100.0;
  const int frames = 600;
  const Eigen::MatrixXd truth = driving_angles(model, rest, frames, rate);
  const mocap::Clip clip = test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Zero(frames),
                                                     Eigen::MatrixXd::Zero(frames, 3));
  const LandmarkTrack track = extract_landmarks(clip);
  EXPECT_EQ(track.preset, "cmu-motionbuilder");

  RetargetReport report;
  const ReferenceMotion motion = retarget_motion(track, model, description, rest, {}, &report);
  // Same arm length as the robot: a ratio of two lengths computed from the same placements (measured
  // exactly 1); 1e-9 only allows for rounding in the sums of offsets.
  EXPECT_NEAR(report.scale, 1.0, 1e-9);

  // What the IK achieves on its own robot (measured: RMS 0.110 deg, worst 0.813 deg on one joint and frame,
  // end effectors 0.23 mm at mid-clip and 0.70 mm at worst). The remaining error is not round-off: the IK
  // stops at a 1e-5 rad step, is damped and pushed out of the limit-avoidance band. The bounds leave about
  // 1.5x to 2x for a different iteration path (compiler, vector width), and fail on a wrong axis, sign or
  // landmark (degrees).
  const Eigen::MatrixXd joints = joint_rows(motion);
  const double rms = rms_upper_body_error(ik, joints, truth);
  EXPECT_LE(rms, 0.2 * kDeg) << "RMS error " << rms / kDeg << " deg";  // measured 0.110 deg
  double worst = 0.0;
  for (int j : ik.variables()) worst = std::max(worst, (joints.col(j) - truth.col(j)).cwiseAbs().maxCoeff());
  EXPECT_LE(worst, 1.2 * kDeg) << "worst error " << worst / kDeg << " deg";  // measured 0.813 deg
  // Every joint that is not a variable (legs, grippers) is left at half-sitting.
  for (int j = 0; j < model.nj; ++j) {
    if (std::find(ik.variables().begin(), ik.variables().end(), j) == ik.variables().end())
      EXPECT_EQ(joints(frames / 2, j), rest[model.idx_q(j)]) << model.joint_names[j];
  }

  // P_c: the actor's scaled hands anchored at the robot's shoulders; for an actor with the robot's
  // proportions, the robot's own head and gripper positions for q_c, in the waist frame. Every frame:
  // 1.5 mm (measured 0.70 mm at worst, frame 201; 0.23 mm at mid-clip), the angle errors above seen at
  // the ends of ~0.5 m arms.
  double worst_end_effector = 0.0;
  for (int f = 0; f < frames; ++f) {
    const Eigen::Matrix<double, 9, 1> p = ik.end_effectors(truth.row(f).transpose());
    worst_end_effector = std::max(worst_end_effector, (motion.end_effectors.col(f) - p).norm());
  }
  EXPECT_LE(worst_end_effector, 0.0015) << "worst end-effector error " << worst_end_effector << " m";
}

TEST_F(Fixture, GlobalYawAndTranslationOfTheClipChangeNothing) {
  const double rate = 100.0;
  const int frames = 200;
  const Eigen::MatrixXd truth = driving_angles(model, rest, frames, rate);
  const mocap::Clip plain = test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Zero(frames),
                                                      Eigen::MatrixXd::Zero(frames, 3));
  Eigen::MatrixXd shift(frames, 3);
  shift.rowwise() = Eigen::RowVector3d(1.7, -2.3, 0.4);
  const mocap::Clip moved =
      test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Constant(frames, 2.3), shift);

  const ReferenceMotion a = retarget_motion(extract_landmarks(plain), model, description, rest);
  const ReferenceMotion b = retarget_motion(extract_landmarks(moved), model, description, rest);
  // Measured 1e-14 rad and 1e-15 m: the two runs take the same iterations. 1e-6: the rotated landmarks
  // differ by round-off, which may flip the IK's stop test (no joint step above 1e-5 rad) and leave the
  // two solutions up to a fraction of that last step apart; a yaw leaking into the result is O(0.1).
  EXPECT_LE((joint_rows(a) - joint_rows(b)).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LE((a.end_effectors - b.end_effectors).cwiseAbs().maxCoeff(), 1e-6);
  // The waist is arithmetic, no solver (measured: identical).
  const Eigen::Index base = model.nq - model.nj;
  EXPECT_LE((a.motion.q.topRows(base) - b.motion.q.topRows(base)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST_F(Fixture, PelvisHeightMotionIsKeptScaled) {
  const double rate = 100.0;
  const int frames = 50;
  const Eigen::MatrixXd truth = driving_angles(model, rest, frames, rate);
  Eigen::MatrixXd root = Eigen::MatrixXd::Zero(frames, 3);
  for (int f = 0; f < frames; ++f) root(f, 2) = 0.9 - 0.002 * f;  // crouching by 10 cm
  const mocap::Clip clip = test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Zero(frames), root);
  RetargetOptions options;
  options.scale = 0.5;
  const ReferenceMotion motion = retarget_motion(extract_landmarks(clip), model, description, rest, options);
  // A scaled difference of heights (measured: exact); 1e-12 is a few ulp of the 0.65 m waist height.
  EXPECT_NEAR(waist(motion, 0).p.z(), rest[2], 1e-12);
  EXPECT_NEAR(waist(motion, frames - 1).p.z(), rest[2] - 0.5 * 0.002 * (frames - 1), 1e-12);
  for (int f = 0; f < frames; ++f) EXPECT_EQ(waist(motion, f).R, Eigen::Matrix3d::Identity());  // upright
}

// A smooth sweep of the driving angles that runs past the chest-yaw limit, through a straight arm (elbow
// at 0, where the shoulder yaw is undetermined) and through the shoulder-roll gimbal: the result must stay
// within the limits and never switch IK branch. A branch switch moves some joint by a large angle in one
// frame; following the targets (and re-converging after the straight arm has let the shoulder yaw drift)
// moves at most a few times as fast as the sweep, which moves 0.012 rad per frame (measured: 4.1 times,
// 0.049 rad at frame 283, where the straightened arm's shoulder yaw re-converges; a branch switch is
// O(1 rad), i.e. 80 times).
TEST_F(Fixture, NoJumpsAtJointLimitsOrSingularities) {
  const double rate = 100.0;
  const int frames = 400;
  Eigen::MatrixXd truth(frames, model.nj);
  for (int f = 0; f < frames; ++f) {
    const double s = std::sin(std::numbers::pi * f / (frames - 1));  // 0 -> 1 -> 0
    truth.row(f) = rest.tail(model.nj).transpose();
    truth(f, model.joint_index("CHEST_JOINT0")) = 1.3 * s;          // limit 0.785
    truth(f, model.joint_index("RARM_JOINT3")) = -0.6 * (1.0 - s);  // arm straightens completely
    truth(f, model.joint_index("RARM_JOINT0")) = -1.2 * s;
    truth(f, model.joint_index("LARM_JOINT1")) = 0.2 + 1.5 * s;  // through the roll gimbal at 90 deg
    truth(f, model.joint_index("LARM_JOINT3")) = -0.5;
  }
  const mocap::Clip clip = test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Zero(frames),
                                                     Eigen::MatrixXd::Zero(frames, 3));
  const ReferenceMotion reference = retarget_motion(extract_landmarks(clip), model, description, rest);
  const Eigen::MatrixXd joints = joint_rows(reference);

  double fastest_truth = 0.0;
  for (int f = 1; f < frames; ++f)
    fastest_truth = std::max(fastest_truth, (truth.row(f) - truth.row(f - 1)).cwiseAbs().maxCoeff());
  for (int f = 0; f < frames; ++f) {
    for (int j = 0; j < model.nj; ++j) {
      ASSERT_GE(joints(f, j), model.lower_limit[j]) << "frame " << f << " joint " << j;
      ASSERT_LE(joints(f, j), model.upper_limit[j]) << "frame " << f << " joint " << j;
    }
    if (f > 0) {
      const double step = (joints.row(f) - joints.row(f - 1)).cwiseAbs().maxCoeff();
      EXPECT_LE(step, 6.0 * fastest_truth) << "jump at frame " << f;  // measured 4.1 x
    }
  }
  // The chest yaw saturates at its limit instead of wandering off: the IK clamps to the limit (measured:
  // exactly on it); 1e-6 rad allows a solver that stops within its tolerance of the bound.
  EXPECT_NEAR(joints(frames / 2, model.joint_index("CHEST_JOINT0")), model.upper_limit[12], 1e-6);
}

// retarget.scale: height. The robot is measured with straight legs at the zero configuration, gaze frame
// above the ankle; the skeleton's Head and ankle (RightFoot / LeftFoot) joints sit exactly there, so a
// standing clip of it measures the robot's height, and a uniformly scaled copy the inverse ratio. Bent
// knees in most of the frames (a guard stance) must not change the measure: only standing frames are
// comparable with the robot's straight legs.
TEST_F(Fixture, HeightScaleIsTheStandingHeightRatio) {
  const double rate = 100.0;
  const int frames = 60;
  Eigen::MatrixXd truth = Eigen::MatrixXd::Zero(frames, model.nj);
  for (int f = 0; f < frames; ++f) {
    truth(f, model.joint_index("RARM_JOINT0")) = -0.02 * f;  // the arms move; the legs stand straight ...
    truth(f, model.joint_index("LARM_JOINT3")) = -0.01 * f;
    if (f % 5 < 3) {  // ... except in 60 % of the frames, knees bent with the trunk upright
      for (const char* leg : {"RLEG_JOINT", "LLEG_JOINT"}) {
        truth(f, model.joint_index(std::string(leg) + "2")) = -0.5;
        truth(f, model.joint_index(std::string(leg) + "3")) = 1.0;
        truth(f, model.joint_index(std::string(leg) + "4")) = -0.5;
      }
    }
  }
  mocap::Clip clip = test::robot_skeleton_clip(model, truth, rate, Eigen::VectorXd::Zero(frames),
                                               Eigen::MatrixXd::Zero(frames, 3));
  RetargetOptions options;
  options.scale_from_height = true;
  RetargetReport report;
  retarget_motion(extract_landmarks(clip), model, description, rest, options, &report);
  EXPECT_GT(ik.standing_height(), 1.2);  // HRP-2: about 1.5 m tall, the ankle ~0.1 m above the sole
  // Heights are sums of the same placements along the same chain (measured 2e-16 m); 1e-12 is a few ulp of
  // 1.5 m and its ratio.
  EXPECT_NEAR(report.human_height, ik.standing_height(), 1e-12);
  EXPECT_NEAR(report.scale, 1.0, 1e-12);

  // The same actor 1.25 times larger: the robot is 1 / 1.25 of it.
  const double k = 1.25;
  auto& skeleton = std::get<mocap::SkeletonClip>(clip.data);
  for (mocap::Joint& joint : skeleton.joints) joint.offset *= k;
  skeleton.values.leftCols(3) *= k;  // root position channels
  retarget_motion(extract_landmarks(clip), model, description, rest, options, &report);
  EXPECT_NEAR(report.human_height, k * ik.standing_height(), 1e-12);  // measured 2e-16 m
  EXPECT_NEAR(report.scale, 1.0 / k, 1e-12);                          // measured 1e-16
  // The arm-length ratio (auto) agrees here: the actor has the robot's proportions.
  retarget_motion(extract_landmarks(clip), model, description, rest, {}, &report);
  EXPECT_NEAR(report.scale, 1.0 / k, 1e-12);  // same: a ratio of sums of the same scaled offsets

  // An explicit number still wins; a clip without ankles cannot be measured.
  options.scale = 0.7;
  retarget_motion(extract_landmarks(clip), model, description, rest, options, &report);
  EXPECT_EQ(report.scale, 0.7);
  options.scale = 0.0;
  LandmarkTrack no_ankles = extract_landmarks(clip);
  no_ankles.available[static_cast<std::size_t>(index(Landmark::kRightAnkle))] = false;
  no_ankles.available[static_cast<std::size_t>(index(Landmark::kLeftAnkle))] = false;
  try {
    retarget_motion(no_ankles, model, description, rest, options);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot measure the height"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mimic::retarget
