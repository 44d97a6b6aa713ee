// evaluation::check_motion on synthetic motions of HRP-2 (no files, no solver): a still half-sitting
// stance passes with its ZMP inside the feet and no slip, and one arm joint driven past its velocity
// limit gives exactly one Violation, on that joint, with the value and limit it was held to.
#include "mimic/evaluation/check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/hrp2_robot.hpp"

namespace {

using namespace mimic;

struct Hrp2 : test::Hrp2Robot {
  // n samples of the half-sitting pose at 200 Hz, at rest, both feet in support.
  model::SampledMotion stance(int n) const {
    model::SampledMotion m;
    for (int k = 0; k < n; ++k) m.times.push_back(0.005 * k);
    m.q = description.nominal_q(model).replicate(1, n);
    m.v = Eigen::MatrixXd::Zero(model.nv, n);
    m.a = Eigen::MatrixXd::Zero(model.nv, n);
    m.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
    return m;
  }

  int joint(const std::string& name) const {
    const auto it = std::find(model.joint_names.begin(), model.joint_names.end(), name);
    return static_cast<int>(it - model.joint_names.begin());
  }
};

TEST(EvaluationCheck, StillStanceHoldsEveryLimit) {
  const Hrp2 r;
  const evaluation::Report report = evaluation::check_motion(r.model, r.feet, r.stance(5));
  EXPECT_TRUE(report.ok()) << report.violations.size() << " violations";
  EXPECT_EQ(report.samples, 5);
  EXPECT_NEAR(report.rate, 200.0, 1e-9);
  // The feet do not move, so nothing can slip (forward kinematics of identical q: exactly 0).
  EXPECT_EQ(report.max_slip_position, 0.0);
  EXPECT_EQ(report.max_slip_angle, 0.0);
  // At rest the ZMP is the CoM's ground projection, which half-sitting keeps between the feet: well inside
  // the double-support polygon (which is about 0.2 m across), so the margin is positive by centimetres.
  EXPECT_GT(report.min_zmp_margin, 0.01);
  EXPECT_EQ(evaluation::worst(report.velocity).ratio, 0.0);
  // The ground reaction explains the whole base wrench of a static stance (seed 001 III-C).
  EXPECT_LT(report.max_base_residual, 1e-6);
}

TEST(EvaluationCheck, VelocityOverTheLimitIsOneViolationOnThatJoint) {
  const Hrp2 r;
  const int n = 5;
  model::SampledMotion m = r.stance(n);
  const int j = r.joint("RARM_JOINT3");  // the right elbow: far from its range's ends in half-sitting
  ASSERT_LT(j, r.model.nj);
  const double limit = r.model.velocity_limit[j];
  const double w = -1.5 * limit;  // bends the elbow further (0.1 rad over the 0.02 s), within its range
  for (int k = 0; k < n; ++k) {
    m.q(r.model.idx_q(j), k) += w * m.times[static_cast<std::size_t>(k)];
    m.v(r.model.idx_v(j), k) = w;
  }
  const evaluation::Report report = evaluation::check_motion(r.model, r.feet, m);
  ASSERT_EQ(report.violations.size(), 1u);
  const evaluation::Violation& v = report.violations.front();
  EXPECT_EQ(v.kind, evaluation::ViolationKind::kVelocity);
  EXPECT_STREQ(evaluation::to_string(v.kind), "velocity");
  EXPECT_EQ(v.where, "RARM_JOINT3");
  EXPECT_EQ(v.value, w);
  EXPECT_EQ(v.limit, limit);
  EXPECT_NEAR(v.excess, 0.5 * limit, 1e-12 * limit);
  EXPECT_EQ(v.violating_samples, n);
  const evaluation::Peak& peak = evaluation::worst(report.velocity);
  EXPECT_NEAR(peak.ratio, 1.5, 1e-12);
  EXPECT_EQ(peak.joint, "RARM_JOINT3");
  EXPECT_EQ(peak.value, w);
  EXPECT_EQ(peak.limit, limit);
  EXPECT_EQ(report.velocity[static_cast<std::size_t>(j)].ratio, peak.ratio);

  // The same motion within factored limits that allow it: no violation.
  evaluation::CheckOptions loose;
  loose.limit_tolerance = 0.6;  // 1.5 <= 1 + 0.6
  EXPECT_TRUE(evaluation::check_motion(r.model, r.feet, m, loose).ok());
}

}  // namespace
