// pair_only_samples (optimize_motion.hpp): the torque objective's first solve leaves out the torque-limit
// rows of the samples between the pinned ends only when the initial guess stays below the ratio of every
// active joint's limit at all of them. A start near a limit anywhere keeps every row: leaving out only the
// far samples' rows made boxing's first solve crawl (7055 steps against 788, optimize_motion.hpp).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "mimic/motion/optimize_motion.hpp"

namespace mimic::motion {
namespace {

struct Fixture {
  // Three joints, joint 1 passive; limits 10, 20, 40 N m; six samples, torque samples 0, 2, 4, 5.
  std::vector<int> active{0, 2};
  model::ScaledLimits limits;
  Eigen::MatrixXd tau = Eigen::MatrixXd::Constant(3, 6, 1.0);
  std::vector<int> samples{0, 2, 4, 5};
  Fixture() { limits.torque = Eigen::Vector3d(10.0, 20.0, 40.0); }
  std::vector<int> pair_only() const { return pair_only_samples(samples, tau, active, limits, 0.5); }
};

TEST(PairOnlySamples, EverySampleBetweenTheEndsWhenAllStayBelowTheRatio) {
  Fixture f;
  f.tau(0, 2) = -4.9;  // 0.49 of joint 0's limit
  f.tau(2, 4) = 19.9;
  EXPECT_EQ(f.pair_only(), (std::vector<int>{2, 4}));
}

TEST(PairOnlySamples, NoneWhenOneSampleReachesTheRatio) {
  Fixture f;
  f.tau(2, 4) = -20.0;  // exactly half of joint 2's limit
  EXPECT_TRUE(f.pair_only().empty());
  Fixture g;
  g.tau(0, 2) = 30.0;  // beyond the limit
  EXPECT_TRUE(g.pair_only().empty());
}

TEST(PairOnlySamples, ANanTorqueCountsAsNear) {
  Fixture f;
  f.tau(2, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(f.pair_only().empty());
}

TEST(PairOnlySamples, ThePinnedEndsPassiveJointsAndOtherSamplesDoNotCount) {
  Fixture f;
  f.tau(0, 0) = 100.0;  // the first pinned end
  f.tau(2, 5) = 100.0;  // the last
  f.tau(1, 2) = 100.0;  // a passive joint
  f.tau(0, 3) = 100.0;  // a sample without torque rows
  EXPECT_EQ(f.pair_only(), (std::vector<int>{2, 4}));
}

TEST(PairOnlySamples, NoneWithOnlyTheEnds) {
  Fixture f;
  f.samples = {0, 5};
  EXPECT_TRUE(f.pair_only().empty());
}

}  // namespace
}  // namespace mimic::motion
