// Configuration-space operations on HRP-2 (free-flyer): integrate / difference are inverse of each other,
// neutral is inside the limits, random configurations respect the limits and have unit quaternions.
// Tolerance 1e-12: the round trips go through exp6/log6 (exact to ~1e-15, tests/spatial/explog.cpp) on
// O(1) values; measured worst 1.4e-15 relative (base placement after difference then integrate), unit
// quaternion norms to 2.2e-16.
#include "mimic/model/configuration.hpp"

#include <gtest/gtest.h>

#include <random>

#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

const Model& hrp2() {
  static const Model m = load_urdf(test::hrp2_urdf().string(), LoadOptions::hrp2());
  return m;
}

TEST(Configuration, NeutralAndRandomWithinLimits) {
  const Model& m = hrp2();
  const Eigen::VectorXd q0 = neutral(m);
  EXPECT_TRUE(q0.head(6).isZero(0.0));
  EXPECT_EQ(q0[6], 1.0);
  std::mt19937 rng(7);
  for (int k = 0; k < 100; ++k) {
    const Eigen::VectorXd q = random_configuration(m, rng);
    EXPECT_NEAR(q.segment<4>(3).norm(), 1.0, 1e-12);
    for (int j = 0; j < m.nj; ++j) {
      EXPECT_GE(q[m.idx_q(j)], m.lower_limit[j]);
      EXPECT_LE(q[m.idx_q(j)], m.upper_limit[j]);
      EXPECT_GE(q0[m.idx_q(j)], m.lower_limit[j]);
      EXPECT_LE(q0[m.idx_q(j)], m.upper_limit[j]);
    }
  }
}

TEST(Configuration, IntegrateDifferenceRoundTrip) {
  const Model& m = hrp2();
  std::mt19937 rng(8);
  for (int k = 0; k < 100; ++k) {
    const Eigen::VectorXd q0 = random_configuration(m, rng);
    const Eigen::VectorXd v = Eigen::VectorXd::Random(m.nv);
    const Eigen::VectorXd q1 = integrate(m, q0, v);
    EXPECT_TRUE(difference(m, q0, q1).isApprox(v, 1e-12));
    const Eigen::VectorXd q2 = random_configuration(m, rng);
    const Eigen::VectorXd back = integrate(m, q0, difference(m, q0, q2));
    // quaternions q and -q are the same orientation
    EXPECT_TRUE(base_placement(m, back).isApprox(base_placement(m, q2), 1e-12));
    EXPECT_TRUE(back.tail(m.nj).isApprox(q2.tail(m.nj), 1e-12));
  }
}

// The base velocity is expressed in the BASE frame (docs/CONTRACTS.md): a pure linear velocity (1, 0, 0)
// on a base yawed by 90 degrees moves it along world y.
TEST(Configuration, BaseVelocityIsInTheBaseFrame) {
  const Model& m = hrp2();
  Eigen::VectorXd q = neutral(m);
  q.segment<4>(3) << 0, 0, std::sin(M_PI / 4), std::cos(M_PI / 4);  // yaw 90 deg (x y z w)
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
  v[0] = 1.0;
  const Eigen::VectorXd q1 = integrate(m, q, v);
  // The yaw quaternion holds sin / cos(pi / 4), each rounded: its rotation's 1 - 2 sin^2(pi / 4) comes out
  // ~2e-16 where 0 is meant (measured 2.2e-16 on x, 0 on y). A velocity taken in the world frame would move x
  // by 1.
  EXPECT_NEAR(q1[0], 0.0, 1e-15);
  EXPECT_NEAR(q1[1], 1.0, 1e-15);
}

TEST(Configuration, FixedBaseIsVectorial) {
  LoadOptions options = LoadOptions::hrp2(RootType::kFixed);
  const Model m = load_urdf(test::hrp2_urdf().string(), options);
  EXPECT_EQ(m.nq, 30);
  const Eigen::VectorXd q = Eigen::VectorXd::Random(30), v = Eigen::VectorXd::Random(30);
  // Plain vector sums: default isApprox (1e-12 relative) is rounding only (measured 0 and 4e-17).
  EXPECT_TRUE(integrate(m, q, v).isApprox(q + v));
  EXPECT_TRUE(difference(m, q, q + v).isApprox(v));
}

}  // namespace
}  // namespace mimic::model
