// The motion spine of model/: base pose get/set on the free-flyer, differentiate() against a motion whose
// derivatives are known in closed form, contact phases from intervals, validate() and is_uniform().
// Tolerances: the pose round trip goes through one quaternion <-> matrix conversion (1e-15 on unit-size
// values, 1e-14 with margin). The finite differences are second order: on a 10 ms grid their error is
// h^2 / 6 times the third derivative (about 2e-5 for this motion), checked at 1e-4; the one-sided end
// velocities are first order (h / 2 times the second derivative, about 5e-3), checked at 1e-2.
#include "mimic/model/sampled_motion.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

#include "mimic/model/base_pose.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

using spatial::SE3;
using spatial::Vec3;

const Model& hrp2() {
  static const Model m = load_urdf(test::hrp2_urdf().string(), LoadOptions::hrp2());
  return m;
}

Eigen::Matrix3d rotation(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

TEST(BasePose, RoundTripWithRotationLeavesTheJointsAlone) {
  const Model& m = hrp2();
  const Eigen::VectorXd joints = Eigen::VectorXd::LinSpaced(m.nj, -0.5, 0.5);
  Eigen::VectorXd q = neutral(m);
  q.tail(m.nj) = joints;
  const SE3 oMb(rotation(0.3, -0.2, 2.9), Vec3(0.1, -0.4, 0.65));
  set_base_pose(m, q, oMb);
  const SE3 back = base_pose(m, q);
  EXPECT_TRUE(back.R.isApprox(oMb.R, 1e-14)) << back.R;
  EXPECT_TRUE(back.p.isApprox(oMb.p, 1e-14));
  EXPECT_NEAR(q.segment<4>(3).norm(), 1.0, 1e-15);
  EXPECT_EQ(q.tail(m.nj), joints);
  // The quaternion sits in q as x y z w (model.hpp): a yaw about z has x = y = 0.
  set_base_pose(m, q, SE3(rotation(0.0, 0.0, 1.0), Vec3::Zero()));
  EXPECT_NEAR(q[3], 0.0, 1e-16);
  EXPECT_NEAR(q[4], 0.0, 1e-16);
  EXPECT_NEAR(q[5], std::sin(0.5), 1e-15);
  EXPECT_NEAR(q[6], std::cos(0.5), 1e-15);
  EXPECT_TRUE(base_quaternion(q).toRotationMatrix().isApprox(rotation(0.0, 0.0, 1.0), 1e-15));
  // The same pose as configuration.hpp's base_placement and the whole-configuration helper.
  const Eigen::VectorXd built = configuration(m, oMb, joints);
  EXPECT_TRUE(base_placement(m, built).R.isApprox(oMb.R, 1e-14));
  EXPECT_EQ(built.tail(m.nj), joints);
  // integrate() moves the pose that base_pose() reads: a body twist (1, 0, 0) on a base yawed by 90 deg.
  set_base_pose(m, q, SE3(rotation(0.0, 0.0, M_PI / 2), Vec3::Zero()));
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
  v[0] = 1.0;
  EXPECT_TRUE(base_pose(m, integrate(m, q, v)).p.isApprox(Vec3(0.0, 1.0, 0.0), 1e-15));
}

TEST(BasePose, FixedBaseHasNoBaseCoordinates) {
  const Model m = load_urdf(test::hrp2_urdf().string(), LoadOptions::hrp2(RootType::kFixed));
  ASSERT_EQ(m.nq, m.nj);
  Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(m.nq, 0.0, 1.0);
  const Eigen::VectorXd before = q;
  set_base_pose(m, q, SE3(rotation(0.1, 0.2, 0.3), Vec3(1.0, 2.0, 3.0)));
  EXPECT_EQ(q, before);
  EXPECT_TRUE(base_pose(m, q).R.isIdentity(0.0));
  EXPECT_TRUE(base_pose(m, q).p.isZero(0.0));
}

// A base turning at a constant yaw rate w while its origin follows p(t) = (c t^2, s t, z), and every joint
// j at 0.2 sin(f t + j). The body twist is (R^T p', (0, 0, w)) and its derivative
// (R^T p'' - w x R^T p', 0), since dR^T/dt = -[w]x R^T.
struct AnalyticMotion {
  double w = 0.8, c = 0.5, s = 0.2, z = 0.7, f = 3.0;

  SE3 base(double t) const { return SE3(rotation(0.0, 0.0, w * t), Vec3(c * t * t, s * t, z)); }
  Vec3 velocity(double t) const { return rotation(0.0, 0.0, w * t).transpose() * Vec3(2 * c * t, s, 0.0); }
  Vec3 acceleration(double t) const {
    return rotation(0.0, 0.0, w * t).transpose() * Vec3(2 * c, 0.0, 0.0) -
           Vec3(0.0, 0.0, w).cross(velocity(t));
  }
  double joint(int j, double t) const { return 0.2 * std::sin(f * t + j); }
  double joint_rate(int j, double t) const { return 0.2 * f * std::cos(f * t + j); }
  double joint_acceleration(int j, double t) const { return -0.2 * f * f * std::sin(f * t + j); }

  SampledMotion sample(const Model& m, const std::vector<double>& times) const {
    SampledMotion motion;
    motion.times = times;
    motion.q.resize(m.nq, static_cast<Eigen::Index>(times.size()));
    for (std::size_t k = 0; k < times.size(); ++k) {
      Eigen::VectorXd joints(m.nj);
      for (int j = 0; j < m.nj; ++j) joints[j] = joint(j, times[k]);
      motion.q.col(static_cast<Eigen::Index>(k)) = configuration(m, base(times[k]), joints);
    }
    motion.phases.assign(times.size(), ContactPhase::kDoubleSupport);
    return motion;
  }
};

void expect_derivatives(const Model& m, const AnalyticMotion& truth, const SampledMotion& motion,
                        bool accelerations) {
  const Eigen::Index n = motion.size();
  for (Eigen::Index k = 0; k < n; ++k) {
    const double t = motion.times[static_cast<std::size_t>(k)];
    const bool end = k == 0 || k == n - 1;
    const double tolerance = end ? 1e-2 : 1e-4;
    SCOPED_TRACE("sample " + std::to_string(k));
    EXPECT_LT((motion.v.col(k).head<3>() - truth.velocity(t)).norm(), tolerance);
    EXPECT_LT((motion.v.col(k).segment<3>(3) - Vec3(0.0, 0.0, truth.w)).norm(), 1e-12);
    for (int j = 0; j < m.nj; ++j) EXPECT_NEAR(motion.v(m.idx_v(j), k), truth.joint_rate(j, t), tolerance);
    if (!accelerations || end) continue;
    EXPECT_LT((motion.a.col(k).head<3>() - truth.acceleration(t)).norm(), 1e-4);
    EXPECT_LT(motion.a.col(k).segment<3>(3).norm(), 1e-9);
    for (int j = 0; j < m.nj; ++j) EXPECT_NEAR(motion.a(m.idx_v(j), k), truth.joint_acceleration(j, t), 1e-3);
  }
}

TEST(Differentiate, MatchesTheAnalyticBodyTwistOnAFreeFlyer) {
  const Model& m = hrp2();
  const AnalyticMotion truth;
  std::vector<double> times;
  for (int k = 0; k <= 100; ++k) times.push_back(0.01 * k);
  SampledMotion motion = truth.sample(m, times);
  differentiate(m, motion);
  EXPECT_NO_THROW(validate(m, motion));
  expect_derivatives(m, truth, motion, true);
  // The overload on separate matrices is the same computation.
  Eigen::MatrixXd v, a;
  differentiate(m, motion.times, motion.q, v, a);
  EXPECT_EQ(v, motion.v);
  EXPECT_EQ(a, motion.a);
}

TEST(Differentiate, VelocitiesStaySecondOrderOnANonUniformGrid) {
  const Model& m = hrp2();
  const AnalyticMotion truth;
  std::vector<double> times{0.0};
  for (int k = 1; k <= 100; ++k) times.push_back(times.back() + (k % 3 == 0 ? 0.013 : 0.008));
  SampledMotion motion = truth.sample(m, times);
  differentiate(m, motion);
  expect_derivatives(m, truth, motion, false);  // three-point accelerations are first order here
  EXPECT_FALSE(is_uniform(motion.times));
}

TEST(Differentiate, FewSamples) {
  const Model& m = hrp2();
  const AnalyticMotion truth;
  SampledMotion one = truth.sample(m, {0.5});
  differentiate(m, one);
  EXPECT_TRUE(one.v.isZero(0.0));
  EXPECT_TRUE(one.a.isZero(0.0));
  SampledMotion two = truth.sample(m, {0.0, 0.01});
  differentiate(m, two);
  EXPECT_EQ(two.v.col(0), two.v.col(1));  // the one interval's velocity at both ends
  EXPECT_TRUE(two.a.isZero(0.0));
}

TEST(ContactPhases, FromIntervals) {
  // Eighths of a second are exact in binary, so the boundaries are tested exactly.
  std::vector<double> times;
  for (int k = 0; k <= 16; ++k) times.push_back(0.125 * k);
  const auto phases = phases_from_intervals(times, {{0.5, 1.125, ContactPhase::kLeftSupport},
                                                    {1.25, 2.0, ContactPhase::kRightSupport},
                                                    {1.5, 1.625, ContactPhase::kDoubleSupport}});
  using enum ContactPhase;
  // 0..0.375 outside every interval: double support; 0.5 and 1.125 included (both ends); 1.5 and 1.625 are
  // in the last interval, which overrides the right support listed before it.
  const std::vector<ContactPhase> expected{
      kDoubleSupport, kDoubleSupport, kDoubleSupport, kDoubleSupport, kLeftSupport,  kLeftSupport,
      kLeftSupport,   kLeftSupport,   kLeftSupport,   kLeftSupport,   kRightSupport, kRightSupport,
      kDoubleSupport, kDoubleSupport, kRightSupport,  kRightSupport,  kRightSupport};
  EXPECT_EQ(phases, expected);
  EXPECT_TRUE(right_foot_in_contact(kRightSupport));
  EXPECT_FALSE(left_foot_in_contact(kRightSupport));
  EXPECT_FALSE(right_foot_in_contact(kLeftSupport));
  EXPECT_TRUE(right_foot_in_contact(kDoubleSupport));
  EXPECT_TRUE(left_foot_in_contact(kDoubleSupport));
  EXPECT_TRUE(phases_from_intervals({}, {{0.0, 1.0, kLeftSupport}}).empty());
  EXPECT_EQ(phases_from_intervals({0.5}, {}), std::vector<ContactPhase>{kDoubleSupport});
}

TEST(SampledMotionChecks, ValidateNamesTheInconsistency) {
  const Model& m = hrp2();
  const AnalyticMotion truth;
  SampledMotion motion = truth.sample(m, {0.0, 0.01, 0.02});
  differentiate(m, motion);
  EXPECT_NO_THROW(validate(m, motion));
  auto message = [&](const SampledMotion& bad) {
    try {
      validate(m, bad);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SampledMotion bad = motion;
  bad.times[2] = 0.01;
  EXPECT_NE(message(bad).find("strictly increasing at sample 2"), std::string::npos) << message(bad);
  bad = motion;
  bad.q.conservativeResize(m.nq - 1, Eigen::NoChange);
  EXPECT_NE(message(bad).find("q is 36 x 3, expected 37 x 3"), std::string::npos) << message(bad);
  bad = motion;
  bad.a.resize(0, 0);
  EXPECT_NE(message(bad).find("a is 0 x 0"), std::string::npos) << message(bad);
  bad = motion;
  bad.phases.pop_back();
  EXPECT_NE(message(bad).find("2 contact phases for 3 samples"), std::string::npos) << message(bad);
}

TEST(SampledMotionChecks, IsUniform) {
  std::vector<double> times;
  for (int k = 0; k < 1000; ++k) times.push_back(k * 0.005);  // rounding of k * 0.005 stays far below 1e-9
  EXPECT_TRUE(is_uniform(times));
  times[500] += 1e-6;
  EXPECT_FALSE(is_uniform(times));
  EXPECT_TRUE(is_uniform({}));
  EXPECT_TRUE(is_uniform({0.0, 0.3}));
}

}  // namespace
}  // namespace mimic::model
