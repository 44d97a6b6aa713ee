// The leg IK on legs that are not HRP-2-shaped: synthetic URDF legs built here (a pitch-roll-yaw hip, a hip
// with offset and tilted joints like G1's, a pitch-roll ankle) and the real JVRC-1 and G1 legs from
// ../shared/robots; the method choice; the chain Jacobian against finite differences; agreement of the
// damped Newton solve with the closed form on HRP-2's leg.
#include "mimic/stability/leg_ik_damped_newton.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/stability/leg_ik.hpp"
#include "support/hrp2_robot.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::stability {
namespace {

using spatial::SE3;
using spatial::Vec3;

// FK(IK(pose)) = pose to this (m and rad) against the MODEL's forward kinematics, not the IK's own chain:
// the solve stops at 1e-12 (leg_ik_damped_newton.cpp), so 1e-9 leaves three orders for rounding.
constexpr double kPoseTolerance = 1e-9;

struct JointSpec {
  std::string name;
  std::string xyz, rpy, axis;
  double lower, upper;
};

// A one-leg robot: a root body, six revolute joints, a fixed sole link `sole_xyz` below the last body.
std::string leg_urdf(const std::vector<JointSpec>& joints, const std::string& sole_xyz) {
  std::ostringstream s;
  const auto link = [&](const std::string& name) {
    s << "<link name=\"" << name
      << "\"><inertial><origin xyz=\"0 0 -0.05\" rpy=\"0 0 0\"/><mass value=\"1\"/>"
      << "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
         "izz=\"0.01\"/></inertial></link>\n";
  };
  s << "<?xml version=\"1.0\"?>\n<robot name=\"leg\">\n";
  link("pelvis");
  std::string parent = "pelvis";
  for (const JointSpec& j : joints) {
    link(j.name + "_link");
    s << "<joint name=\"" << j.name << "\" type=\"revolute\"><parent link=\"" << parent
      << "\"/><child link=\"" << j.name << "_link\"/><origin xyz=\"" << j.xyz << "\" rpy=\"" << j.rpy
      << "\"/><axis xyz=\"" << j.axis << "\"/><limit lower=\"" << j.lower << "\" upper=\"" << j.upper
      << "\" velocity=\"10\" effort=\"100\"/></joint>\n";
    parent = j.name + "_link";
  }
  s << "<link name=\"sole\"/><joint name=\"sole_joint\" type=\"fixed\"><parent link=\"" << parent
    << "\"/><child link=\"sole\"/><origin xyz=\"" << sole_xyz << "\" rpy=\"0 0 0\"/></joint>\n</robot>\n";
  return s.str();
}

model::Model load_leg(const std::string& stem, const std::vector<JointSpec>& joints,
                      const std::string& sole_xyz) {
  const auto path = test::unique_temp_path(stem, ".urdf");
  std::ofstream(path) << leg_urdf(joints, sole_xyz);
  model::Model m = model::load_urdf(path.string());
  std::filesystem::remove(path);
  return m;
}

// JVRC-1's right leg (jvrc1.urdf): hip pitch, roll, yaw about one point, the knee 0.02 m behind the hip
// axis, ankle roll then pitch about one point.
const std::vector<JointSpec> kPitchRollYawHip = {
    {"hip_p", "0 -0.096 0", "0 0 0", "0 1 0", -2.094, 0.785},
    {"hip_r", "0 0 0", "0 0 0", "1 0 0", -0.785, 0.349},
    {"hip_y", "0 0 0", "0 0 0", "0 0 1", -0.524, 0.785},
    {"knee", "-0.02 0 -0.389", "0 0 0", "0 1 0", 0.0, 2.618},
    {"ankle_r", "0.04 0 -0.357", "0 0 0", "1 0 0", -0.611, 0.785},
    {"ankle_p", "0 0 0", "0 0 0", "0 1 0", -1.484, 0.960}};

// G1's right leg (g1_29dof_rev_1_0.urdf): hip pitch, roll, yaw at three different points, the roll joint
// tilted 0.1749 rad about y (and the knee tilted back), ankle pitch then roll.
const std::vector<JointSpec> kOffsetHip = {
    {"hip_p", "0 -0.064452 -0.1027", "0 0 0", "0 1 0", -2.5307, 2.8798},
    {"hip_r", "0 -0.052 -0.030465", "0 -0.1749 0", "1 0 0", -2.9671, 0.5236},
    {"hip_y", "0.025001 0 -0.12412", "0 0 0", "0 0 1", -2.7576, 2.7576},
    {"knee", "-0.078273 -0.0021489 -0.17734", "0 0.1749 0", "0 1 0", -0.087267, 2.8798},
    {"ankle_p", "0 9.4445E-05 -0.30001", "0 0 0", "0 1 0", -0.87267, 0.5236},
    {"ankle_r", "0 0 -0.017558", "0 0 0", "1 0 0", -0.2618, 0.2618}};

// HRP-2's axis order with a hip roll joint 0.02 m in front of the yaw axis: the hip axes do not intersect,
// so the closed form does not apply although the axes are z, x, y, y, y, x.
const std::vector<JointSpec> kYawRollPitchOffset = {{"hip_y", "0 -0.06 0", "0 0 0", "0 0 1", -0.785, 0.524},
                                                    {"hip_r", "0.02 0 0", "0 0 0", "1 0 0", -0.611, 0.524},
                                                    {"hip_p", "0 -0.035 0", "0 0 0", "0 1 0", -2.2, 0.785},
                                                    {"knee", "0 0 -0.3", "0 0 0", "0 1 0", -0.0, 2.618},
                                                    {"ankle_p", "0 0 -0.3", "0 0 0", "0 1 0", -1.4, 0.7},
                                                    {"ankle_r", "0 0 0", "0 0 0", "1 0 0", -0.61, 0.61}};

SE3 model_pose(const model::Model& m, const Eigen::VectorXd& q, int frame) {
  model::Data data(m);
  dynamics::forward_kinematics(m, data, q);
  return dynamics::update_frame_placement(m, data, frame);
}

double rotation_error(const SE3& a, const SE3& b) { return spatial::log3(a.R.transpose() * b.R).norm(); }

// Angles drawn within the limits, `fraction` of each range around its middle, at most `bound` from zero.
LegAngles random_angles(const LegKinematics& leg, std::mt19937& rng, double fraction, double bound = 10.0) {
  LegAngles q;
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (int i = 0; i < kLegJoints; ++i) {
    const double lo = leg.lower_limit(i), hi = leg.upper_limit(i);
    const double mid = 0.5 * (lo + hi), half = 0.5 * fraction * (hi - lo);
    const double from = std::max(mid - half, -bound), to = std::min(mid + half, bound);
    q(i) = 0.5 * (from + to) + (to - from) * u(rng);
  }
  return q;
}

struct RoundTrip {
  int solved = 0, tried = 0;
  double worst_position = 0.0, worst_rotation = 0.0;
  int max_iterations = 0;
};

// Random reachable poses of `leg`: the sole where the model puts it for random in-limit angles under a
// tilted, moved root; solved from `seed_of(truth)`, checked with the model's kinematics and the limits.
template <typename Seed>
RoundTrip round_trips(const model::Model& m, const LegKinematics& leg, int frame, int count, double fraction,
                      double bound, Seed seed_of) {
  std::mt19937 rng(16);
  RoundTrip out;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(m.nq);
  for (int trial = 0; trial < count; ++trial) {
    const LegAngles truth = random_angles(leg, rng, fraction, bound);
    const SE3 root(
        Eigen::AngleAxisd(0.3 * (trial % 7) - 0.9, Vec3(0.2, 0.5, 1.0).normalized()).toRotationMatrix(),
        Vec3(0.1 * (trial % 3), -0.2, 0.8));
    const Eigen::Quaterniond quat(root.R);
    q.head<3>() = root.p;
    q.segment<4>(3) << quat.x(), quat.y(), quat.z(), quat.w();
    for (int i = 0; i < kLegJoints; ++i) q(m.idx_q(leg.joints()[static_cast<std::size_t>(i)])) = truth(i);
    const SE3 target = model_pose(m, q, frame);
    const LegIkResult result = leg.solve(root, target, seed_of(truth, rng));
    ++out.tried;
    out.max_iterations = std::max(out.max_iterations, result.iterations);
    if (!result.ok()) continue;
    ++out.solved;
    Eigen::VectorXd solved = q;
    for (int i = 0; i < kLegJoints; ++i) {
      const int j = leg.joints()[static_cast<std::size_t>(i)];
      solved(m.idx_q(j)) = result.angles(i);
      EXPECT_GE(result.angles(i), m.lower_limit(j) - 1e-9);
      EXPECT_LE(result.angles(i), m.upper_limit(j) + 1e-9);
    }
    const SE3 reached = model_pose(m, solved, frame);
    out.worst_position = std::max(out.worst_position, (reached.p - target.p).norm());
    out.worst_rotation = std::max(out.worst_rotation, rotation_error(reached, target));
  }
  return out;
}

LegAngles cold(const LegAngles&, std::mt19937&) { return LegAngles::Zero(); }
// The previous sample of a motion: every angle off by up to 0.05 rad.
LegAngles warm(const LegAngles& truth, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  LegAngles seed = truth;
  for (int i = 0; i < kLegJoints; ++i) seed(i) += u(rng);
  return seed;
}

// Every warm-started pose (90 % of each range) is solved, and every cold start (the straight leg) to a pose
// of the legs' working range: the middle 60 % of each joint's range, at most 1 rad from the zero pose
// (walking, squatting, kicking). Cold starts over the middle 60 % of G1's ranges without that bound
// (the hip rolled 90 degrees outward, the thigh raised to the chest) have local minima the fixed restarts of
// leg_ik_damped_newton.hpp do not all escape: measured 493 and 495 of 500 solved on
// G1 and on the G1-like test leg, all on JVRC-1; required 97 %; a refit is warm-started.
// All to 1e-9 m / rad. The counts and worst errors are printed.
void expect_round_trips(const model::Model& m, const LegKinematics& leg, const std::string& what) {
  const int frame = m.frame_index(leg.sole_frame());
  const RoundTrip w = round_trips(m, leg, frame, 500, 0.9, 10.0, warm);
  const RoundTrip c = round_trips(m, leg, frame, 500, 0.6, 1.0, cold);
  const RoundTrip x = round_trips(m, leg, frame, 500, 0.6, 10.0, cold);
  std::printf(
      "%s: warm %d/%d (max %d steps), cold %d/%d (max %d steps), cold over 60 %% of the ranges %d/%d; "
      "worst %.2g m, %.2g rad\n",
      what.c_str(), w.solved, w.tried, w.max_iterations, c.solved, c.tried, c.max_iterations, x.solved,
      x.tried, std::max({w.worst_position, c.worst_position, x.worst_position}),
      std::max({w.worst_rotation, c.worst_rotation, x.worst_rotation}));
  EXPECT_EQ(w.solved, w.tried) << what;
  EXPECT_EQ(c.solved, c.tried) << what;
  EXPECT_GE(x.solved, 0.97 * x.tried) << what;
  EXPECT_LT(std::max({w.worst_position, c.worst_position, x.worst_position}), kPoseTolerance) << what;
  EXPECT_LT(std::max({w.worst_rotation, c.worst_rotation, x.worst_rotation}), kPoseTolerance) << what;
}

TEST(LegIkDampedNewton, MethodIsChosenFromTheLegShape) {
  const auto& hrp2 = test::Hrp2Robot::instance();
  EXPECT_EQ(LegKinematics(hrp2.model, hrp2.description.frames.right_sole).method(), LegIkMethod::kClosedForm);
  EXPECT_EQ(LegKinematics(hrp2.model, hrp2.description.frames.left_sole).method(), LegIkMethod::kClosedForm);
  for (const auto* spec : {&kPitchRollYawHip, &kOffsetHip, &kYawRollPitchOffset}) {
    const model::Model m = load_leg("leg_method", *spec, "0 0 -0.1");
    EXPECT_EQ(LegKinematics(m, "sole").method(), LegIkMethod::kDampedNewton);
  }
}

TEST(LegIkDampedNewton, ChainJacobianMatchesFiniteDifferences) {
  // Central differences of the sole's body twist, log6(sole(q)^-1 sole(q + h e_i)) / (2h) both ways: the
  // truncation error is O(h^2) ~ 1e-12 for h = 1e-6, rounding ~1e-16 / 1e-6 = 1e-10; 1e-8 bounds both.
  std::mt19937 rng(3);
  for (const auto* spec : {&kPitchRollYawHip, &kOffsetHip, &kYawRollPitchOffset}) {
    const model::Model m = load_leg("leg_jacobian", *spec, "0.03 0.01 -0.1");
    const LegKinematics leg(m, "sole");
    const SE3 root(Eigen::AngleAxisd(0.4, Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix(),
                   Vec3(0.1, 0.2, 0.9));
    for (int trial = 0; trial < 10; ++trial) {
      const LegAngles q = random_angles(leg, rng, 1.0);
      LegJacobian jacobian;
      const SE3 pose = leg.chain().sole_pose_and_jacobian(root, q, jacobian);
      EXPECT_TRUE(pose.isApprox(leg.sole_pose(root, q), 1e-14));
      constexpr double h = 1e-6;
      for (int i = 0; i < kLegJoints; ++i) {
        LegAngles plus = q, minus = q;
        plus(i) += h;
        minus(i) -= h;
        const Eigen::Matrix<double, 6, 1> fd =
            (spatial::log6(pose.act_inv(leg.sole_pose(root, plus))).to_vector() -
             spatial::log6(pose.act_inv(leg.sole_pose(root, minus))).to_vector()) /
            (2.0 * h);
        EXPECT_LT((fd - jacobian.col(i)).norm(), 1e-8) << "joint " << i;
      }
    }
  }
}

TEST(LegIkDampedNewton, RoundTripsOnSyntheticLegs) {
  const std::vector<std::pair<const std::vector<JointSpec>*, std::string>> legs = {
      {&kPitchRollYawHip, "pitch-roll-yaw hip, roll-pitch ankle"},
      {&kOffsetHip, "offset tilted hip, pitch-roll ankle"},
      {&kYawRollPitchOffset, "yaw-roll-pitch hip with non-intersecting axes"}};
  for (const auto& [spec, name] : legs) {
    const model::Model m = load_leg("leg_round_trip", *spec, "0.02 -0.01 -0.09");
    expect_round_trips(m, LegKinematics(m, "sole"), name);
  }
}

TEST(LegIkDampedNewton, AgreesWithTheClosedFormOnHrp2) {
  // The same HRP-2 leg solved both ways from a seed near the answer (the closed form picks the branch
  // nearest it, the damped Newton solve converges to the solution next to it): the same angles up to the
  // conditioning of the chain (1e-9 rad; measured below).
  const auto& hrp2 = test::Hrp2Robot::instance();
  const LegKinematics leg(hrp2.model, hrp2.description.frames.right_sole);
  ASSERT_EQ(leg.method(), LegIkMethod::kClosedForm);
  std::mt19937 rng(7);
  double worst = 0.0;
  int compared = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const LegAngles truth = random_angles(leg, rng, 0.8);
    const SE3 root(Eigen::Matrix3d::Identity(), Vec3(0.0, 0.0, 0.7));
    const SE3 sole = leg.sole_pose(root, truth);
    const LegAngles seed = warm(truth, rng);
    const LegIkResult closed = leg.solve(root, sole, seed);
    const LegIkResult newton = solve_leg_damped_newton(leg.chain(), root, sole, seed);
    ASSERT_TRUE(closed.ok());
    ASSERT_TRUE(newton.ok()) << to_string(newton.status) << " at trial " << trial;
    // A knee within 0.05 rad of straight is nearly singular: the two may then differ by more than rounding.
    if (std::abs(truth(3)) < 0.05) continue;
    worst = std::max(worst, (closed.angles - newton.angles).cwiseAbs().maxCoeff());
    ++compared;
  }
  std::printf("closed form vs damped Newton on HRP-2: %d poses, worst angle difference %.2g rad\n", compared,
              worst);
  EXPECT_GT(compared, 400);
  EXPECT_LT(worst, 1e-9);
}

TEST(LegIkDampedNewton, ReportsOutOfReachWithTheResidual) {
  const model::Model m = load_leg("leg_reach", kOffsetHip, "0 0 -0.03");
  const LegKinematics leg(m, "sole");
  const SE3 root(Eigen::Matrix3d::Identity(), Vec3(0.0, 0.0, 1.0));
  const LegAngles bent = (LegAngles() << -0.3, 0.0, 0.0, 0.6, -0.3, 0.0).finished();
  SE3 sole = leg.sole_pose(root, bent);
  sole.p.z() -= 0.5;  // half a metre below a slightly bent leg of ~0.75 m: beyond the straight leg
  const LegIkResult result = leg.solve(root, sole, bent);
  EXPECT_EQ(result.status, LegIkStatus::kOutOfReach);
  // The nearest pose is the straight leg, ~0.4 m short; the residual is the real one of the returned angles.
  EXPECT_GT(result.position_error, 0.3);
  const SE3 nearest = leg.sole_pose(root, result.angles);
  EXPECT_NEAR((nearest.p - sole.p).norm(), result.position_error, 1e-12);
  for (int i = 0; i < kLegJoints; ++i) {
    EXPECT_GE(result.angles(i), leg.lower_limit(i));
    EXPECT_LE(result.angles(i), leg.upper_limit(i));
  }
  try {
    (void)leg.solve_or_throw(root, sole, bent);
    ADD_FAILURE() << "no exception";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("out of reach (nearest pose"), std::string::npos) << e.what();
  }
}

TEST(LegIkDampedNewton, RespectsTheLimitsAndReportsAPoseOnlyReachableOutside) {
  const model::Model m = load_leg("leg_limits", kPitchRollYawHip, "0 0 -0.1");
  const LegKinematics leg(m, "sole");
  const SE3 root(Eigen::Matrix3d::Identity(), Vec3(0.0, 0.0, 1.0));
  // The hip yaw 0.3 rad beyond its upper limit (0.785), everything else within.
  const LegAngles outside = (LegAngles() << -0.4, 0.1, 0.785 + 0.3, 0.8, 0.1, -0.4).finished();
  const SE3 sole = leg.sole_pose(root, outside);
  const LegIkResult result = leg.solve(root, sole, outside);
  EXPECT_EQ(result.status, LegIkStatus::kJointLimit);
  EXPECT_EQ(result.limit_joint, 2);
  // The reported solution reaches the pose, outside the range of the joint it names.
  const SE3 reached = leg.sole_pose(root, result.angles);
  EXPECT_LT((reached.p - sole.p).norm(), kPoseTolerance);
  EXPECT_GT(result.angles(2), leg.upper_limit(2));
  EXPECT_THROW((void)leg.solve_or_throw(root, sole, outside), InfeasibleError);
  // A seed outside the limits is projected into them: the solution of a reachable pose stays within.
  const LegAngles inside = (LegAngles() << -0.4, 0.1, 0.6, 0.8, 0.1, -0.4).finished();
  const LegIkResult clamped = leg.solve(root, leg.sole_pose(root, inside), outside);
  ASSERT_TRUE(clamped.ok()) << to_string(clamped.status);
  EXPECT_LT((clamped.angles - inside).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(LegIkDampedNewton, IsDeterministic) {
  const model::Model m = load_leg("leg_deterministic", kOffsetHip, "0 0 -0.03");
  const LegKinematics leg(m, "sole");
  const SE3 root(Eigen::Matrix3d::Identity(), Vec3(0.0, 0.0, 0.8));
  const SE3 sole = leg.sole_pose(root, (LegAngles() << -0.5, -0.1, 0.2, 1.0, -0.4, 0.05).finished());
  const LegIkResult a = leg.solve(root, sole), b = leg.solve(root, sole);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.angles, b.angles);  // bit for bit
  EXPECT_EQ(a.iterations, b.iterations);
}

// The real legs, loaded with today's loader from ../shared/robots; the IK ends at the last leg body (the
// descriptions' sole frames hang from it, a fixed offset away).
TEST(LegIkDampedNewton, RoundTripsOnJvrc1) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  // Today's loader wants an <inertial> on every body, and JVRC-1's root link base_link has none (PELVIS_S,
  // fixed to it, carries the pelvis mass): given a small one here, which moves no joint or frame.
  std::ifstream in(urdf);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string bare = "<link name=\"base_link\"/>";
  ASSERT_NE(text.find(bare), std::string::npos);
  text.replace(text.find(bare), bare.size(),
               "<link name=\"base_link\"><inertial><mass value=\"0.001\"/><inertia ixx=\"1e-6\" ixy=\"0\" "
               "ixz=\"0\" iyy=\"1e-6\" iyz=\"0\" izz=\"1e-6\"/></inertial></link>");
  const auto copy = test::unique_temp_path("jvrc1", ".urdf");
  std::ofstream(copy) << text;
  const model::Model m = model::load_urdf(copy.string());
  std::filesystem::remove(copy);
  for (const char* foot : {"R_ANKLE_P_S", "L_ANKLE_P_S"}) {
    const LegKinematics leg(m, foot);
    EXPECT_EQ(leg.method(), LegIkMethod::kDampedNewton);
    expect_round_trips(m, leg, std::string("JVRC-1 ") + foot);
  }
}

TEST(LegIkDampedNewton, RoundTripsOnG1) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const model::Model m = model::load_urdf(urdf.string());
  for (const char* foot : {"right_ankle_roll_link", "left_ankle_roll_link"}) {
    const LegKinematics leg(m, foot);
    EXPECT_EQ(leg.method(), LegIkMethod::kDampedNewton);
    expect_round_trips(m, leg, std::string("G1 ") + foot);
  }
}

}  // namespace
}  // namespace mimic::stability
