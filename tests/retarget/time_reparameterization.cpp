// Algorithm 1 (seed 000, section III) and the uniform resampling after it.
#include "mimic/retarget/time_reparameterization.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "mimic/core/error.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/explog.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

// Algorithm 1 written as in the paper: dt starts at 1/f and grows by 1/f while any joint is too fast.
// Returns the number of periods of every interval.
std::vector<int> literal_algorithm_1(const Eigen::MatrixXd& q, double f, const Eigen::VectorXd& qdot_max) {
  std::vector<int> steps;
  for (Eigen::Index n = 0; n + 1 < q.cols(); ++n) {
    const Eigen::VectorXd dq = (q.col(n + 1) - q.col(n)).cwiseAbs();
    int k = 1;
    auto too_fast = [&] {
      for (Eigen::Index j = 0; j < dq.size(); ++j) {
        if (dq[j] / (k / f) > qdot_max[j]) return true;
      }
      return false;
    };
    while (too_fast()) ++k;
    steps.push_back(k);
  }
  return steps;
}

// joints x frames: one column per sample.
Eigen::MatrixXd random_walk(int frames, int joints, double step, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, step);
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(joints, frames);
  for (int n = 1; n < frames; ++n) {
    for (int j = 0; j < joints; ++j) q(j, n) = q(j, n - 1) + noise(rng);
  }
  return q;
}

TEST(Algorithm1, OneFrameIsLeftAlone) {
  const Eigen::MatrixXd q = Eigen::MatrixXd::Constant(3, 1, 0.7);
  const RetimedSamples r = reparameterize_time(q, 120.0, Eigen::Vector3d::Ones());
  ASSERT_EQ(r.sample_count(), 1);
  EXPECT_TRUE(r.interval_steps.empty());
  EXPECT_EQ(r.duration(), 0.0);
  EXPECT_EQ(r.slow_down(), 1.0);
  const Eigen::MatrixXd out = resample_uniform(q, r.times, 200.0);
  ASSERT_EQ(out.cols(), 1);
  EXPECT_EQ(out.col(0), q.col(0));
}

TEST(Algorithm1, StaticClipKeepsItsDuration) {
  const Eigen::MatrixXd q = Eigen::MatrixXd::Constant(4, 121, -0.3);
  const RetimedSamples r = reparameterize_time(q, 120.0, Eigen::Vector4d::Constant(0.5));
  for (int k : r.interval_steps) EXPECT_EQ(k, 1);
  EXPECT_DOUBLE_EQ(r.duration(), 1.0);
  EXPECT_DOUBLE_EQ(r.slow_down(), 1.0);
  const Eigen::MatrixXd out = resample_uniform(q, r.times, 200.0);
  EXPECT_EQ(out.cols(), 201);
  EXPECT_TRUE((out.array() == -0.3).all());
}

TEST(Algorithm1, SingleSpikeStretchesOnlyItsTwoIntervals) {
  const double f = 100.0;
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(2, 11);
  q(1, 5) = 1.0;  // one joint jumps by 1 rad for one sample
  const Eigen::Vector2d limit(1.0, 2.0);
  const RetimedSamples r = reparameterize_time(q, f, limit);
  for (int n = 0; n < 10; ++n) {
    // 1 rad at 2 rad/s needs 0.5 s = 50 periods, into and out of the spike.
    EXPECT_EQ(r.interval_steps[n], (n == 4 || n == 5) ? 50 : 1) << "interval " << n;
  }
  EXPECT_DOUBLE_EQ(r.duration(), 1.08);
  EXPECT_DOUBLE_EQ(r.slow_down(), 1.08 / 0.1);

  const Eigen::MatrixXd out = resample_uniform(q, r.times, 200.0);
  EXPECT_EQ(out.cols(), 217);                    // 1.08 s at 200 Hz, both ends included
  EXPECT_DOUBLE_EQ(out.row(1).maxCoeff(), 1.0);  // the spike's peak is kept, only slowed
  // The spike climbs 1 rad in 0.5 s at the 2 rad/s limit, resampled at 200 Hz: at the limit up to round-off
  // of the interpolation (measured |ratio - 1| = 2.3e-14). One period too few would give 2 % above.
  EXPECT_LE(peak_velocity_ratio(out, 200.0, limit), 1.0 + 1e-12);
  EXPECT_GE(peak_velocity_ratio(out, 200.0, limit), 1.0 - 1e-12);  // ... and it runs at the limit
}

TEST(Algorithm1, StepAtExactlyTheLimitIsNotSlowed) {
  // 0.02 rad in 1/100 s is exactly 2 rad/s: the paper's test is a strict '>', so one period suffices.
  const Eigen::Vector2d a(0.0, 0.0), b(0.02, -0.01);
  EXPECT_EQ(interval_steps(a, b, 100.0, Eigen::Vector2d(2.0, 1.0)), 1);
  EXPECT_EQ(interval_steps(a, b, 100.0, Eigen::Vector2d(1.99, 1.0)), 2);
}

TEST(Algorithm1, UnconstrainedCoordinatesAreIgnored) {
  const Eigen::Vector2d a(0.0, 0.0), b(5.0, 0.1);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(interval_steps(a, b, 10.0, Eigen::Vector2d(inf, 1.0)), 1);
}

TEST(Algorithm1, MatchesTheLiteralPseudoCode) {
  const Eigen::MatrixXd q = random_walk(400, 6, 0.05, 7);
  const Eigen::VectorXd limit = (Eigen::VectorXd(6) << 1.0, 2.0, 3.0, 4.0, 5.0, 6.0).finished();
  const RetimedSamples r = reparameterize_time(q, 120.0, limit);
  EXPECT_EQ(r.interval_steps, literal_algorithm_1(q, 120.0, limit));
  EXPECT_GT(r.slow_down(), 1.0);
}

TEST(Algorithm1, ResampledMotionRespectsTheScaledLimitAtEverySample) {
  const Eigen::VectorXd limit = Eigen::VectorXd::LinSpaced(5, 0.5, 3.0);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Eigen::MatrixXd q = random_walk(300, 5, 0.08, seed);
    for (double rate : {200.0, 500.0, 37.0}) {
      const RetimedSamples r = reparameterize_time(q, 120.0, limit, 0.9);
      const Eigen::MatrixXd out = resample_uniform(q, r.times, rate);
      // Round-off only, as in SingleSpikeStretchesOnlyItsTwoIntervals (a sample at the limit comes out
      // 2.3e-14 above it there); measured here: at most 3.5e-5 below the scaled limit.
      EXPECT_LE(peak_velocity_ratio(out, rate, limit), 0.9 * (1.0 + 1e-12))
          << "seed " << seed << " rate " << rate;
      // The re-timed motion still passes through every input sample in order: its ends are the input's.
      EXPECT_EQ(out.col(0), q.col(0));
      EXPECT_EQ(out.col(out.cols() - 1), q.col(q.cols() - 1));
      // Sample counts are integers: 0.5 makes this an equality. The 1e-9 under the ceiling keeps a duration
      // that is a whole number of periods up to round-off from gaining a sample.
      EXPECT_NEAR(out.cols(), std::ceil(r.duration() * rate - 1e-9) + 1, 0.5);
    }
  }
}

TEST(Algorithm1, VelocityScaleSlowsFurther) {
  const Eigen::MatrixXd q = random_walk(200, 3, 0.1, 3);
  const Eigen::VectorXd limit = Eigen::Vector3d::Constant(2.0);
  EXPECT_GT(reparameterize_time(q, 120.0, limit, 0.5).duration(),
            reparameterize_time(q, 120.0, limit).duration());
}

TEST(Algorithm1, RejectsBadInput) {
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(2, 3);
  EXPECT_THROW(reparameterize_time(q, 100.0, Eigen::Vector3d::Ones()), std::invalid_argument);
  EXPECT_THROW(reparameterize_time(q, 0.0, Eigen::Vector2d::Ones()), std::invalid_argument);
  EXPECT_THROW(reparameterize_time(q, 100.0, Eigen::Vector2d(1.0, 0.0)), std::invalid_argument);
  EXPECT_THROW(reparameterize_time(q, 100.0, Eigen::Vector2d::Ones(), -1.0), std::invalid_argument);
  q(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(reparameterize_time(q, 100.0, Eigen::Vector2d::Ones()), InputError);
}

TEST(Resample, InterpolatesLinearlyBetweenRetimedSamples) {
  Eigen::MatrixXd q(1, 3);
  q << 0.0, 1.0, 3.0;
  const std::vector<double> times{0.0, 0.1, 0.3};
  const Eigen::MatrixXd out = resample_uniform(q, times, 20.0);
  ASSERT_EQ(out.cols(), 7);
  const double expected[] = {0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
  // Linear interpolation of values <= 3 at times m / 20: a few ulp (4.4e-16 at 3); measured 0.
  for (int m = 0; m < 7; ++m) EXPECT_NEAR(out(0, m), expected[m], 1e-14) << m;
}

TEST(Resample, HoldsTheLastSampleToFillTheLastPeriod) {
  Eigen::MatrixXd q(1, 2);
  q << 0.0, 1.0;
  const std::vector<double> times{0.0, 0.012};
  const Eigen::MatrixXd out = resample_uniform(q, times, 200.0);  // 0, 0.005, 0.010, 0.015
  ASSERT_EQ(out.cols(), 4);
  // 0.010 / 0.012 of the way from 0 to 1: a few ulp; measured 0.
  EXPECT_NEAR(out(0, 2), 10.0 / 12.0, 1e-14);
  EXPECT_EQ(out(0, 3), 1.0);
}

// A turning, moving waist (HRP-2's free-flyer): the position and the joints linearly, the orientation
// along the geodesic between the two samples, the quaternion of unit norm, the ends exact.
TEST(Resample, ConfigurationsTurnTheWaistAlongTheGeodesic) {
  const model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  const Eigen::VectorXd rest = model::default_robot_description().nominal_q(model);
  const Eigen::Matrix3d R0 = spatial::exp3(Eigen::Vector3d(0.1, -0.2, 0.3));
  const Eigen::Vector3d turn(0.2, 0.1, 1.2);  // 1.2 rad of yaw with some roll and pitch, in the base frame
  const Eigen::Vector3d p0(0.1, -0.05, 0.65), p1(0.3, -0.25, 0.6);
  Eigen::MatrixXd q(model.nq, 2);
  q.col(0) = model::configuration(model, spatial::SE3(R0, p0), rest.tail(model.nj));
  q.col(1) = model::configuration(model, spatial::SE3(R0 * spatial::exp3(turn), p1),
                                  rest.tail(model.nj) + Eigen::VectorXd::Constant(model.nj, 0.4));
  const std::vector<double> times{0.0, 0.1};
  const Eigen::MatrixXd out = resample_configurations(model, q, times, 40.0);  // s = 0, 1/4, ... 1
  ASSERT_EQ(out.cols(), 5);
  EXPECT_EQ(out.col(0), q.col(0));
  EXPECT_EQ(out.col(4), q.col(1));
  for (int m = 1; m < 4; ++m) {
    const double s = m / 4.0;
    const spatial::SE3 pose = model::base_pose(model, out.col(m));
    // Rodrigues and its log on angles of ~1.2 rad, and a quaternion round trip: a few ulp of unit
    // quantities (measured ~1e-16); a linear blend of the two rotation matrices would be 0.05 off.
    EXPECT_LE((pose.R - R0 * spatial::exp3(s * turn)).cwiseAbs().maxCoeff(), 1e-12) << m;
    EXPECT_LE((pose.p - (p0 + s * (p1 - p0))).cwiseAbs().maxCoeff(), 1e-15) << m;
    EXPECT_NEAR(model::base_quaternion(out.col(m)).norm(), 1.0, 1e-15) << m;
    EXPECT_LE(
        (out.col(m).tail(model.nj) - (rest.tail(model.nj) + Eigen::VectorXd::Constant(model.nj, 0.4 * s)))
            .cwiseAbs()
            .maxCoeff(),
        1e-14)  // a few ulp of angles up to 2 rad
        << m;
  }
}

}  // namespace
}  // namespace mimic::retarget
