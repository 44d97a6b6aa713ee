#include "mimic/trajectory/spline_parameterization.hpp"

#include <gtest/gtest.h>

#include <random>

#include "mimic/trajectory/sampled_basis.hpp"
#include "mimic/trajectory/time_grid.hpp"

namespace mt = mimic::trajectory;

namespace {

Eigen::VectorXd random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

mt::SplineParameterization make(mt::EndSpec start, mt::EndSpec end, int joints = 4) {
  return mt::SplineParameterization(mt::QuarticBspline(0.2, 1.7, 0.1), joints, std::move(start),
                                    std::move(end));
}

}  // namespace

TEST(SplineParameterization, VariableCounts) {
  const Eigen::VectorXd q0 = random_vector(4, 1);
  // 15 intervals -> 19 control points.
  EXPECT_EQ(make(mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::fixed_at_rest(q0)).num_slots(), 13);
  EXPECT_EQ(make(mt::EndSpec::at_rest(), mt::EndSpec::at_rest()).num_slots(), 15);
  EXPECT_EQ(make(mt::EndSpec::free(), mt::EndSpec::free()).num_slots(), 19);
  EXPECT_EQ(make(mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::free()).num_variables(), 16 * 4);
  EXPECT_THROW(make(mt::EndSpec::fixed_at_rest(random_vector(3, 1)), mt::EndSpec::free()),
               std::invalid_argument);
}

TEST(SplineParameterization, BoundaryConditionsAreExact) {
  const Eigen::VectorXd q0 = random_vector(4, 1);
  const Eigen::VectorXd qf = random_vector(4, 2);
  const auto p = make(mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::fixed_at_rest(qf));
  const Eigen::VectorXd x = 3.0 * random_vector(p.num_variables(), 3);
  const mt::BsplineTrajectory traj = p.trajectory(x);
  // Fixed ends pin the first and last control points to q0 / qf; the basis sums to one there (one ulp of
  // O(1) values; measured 0). Velocities and accelerations combine equal control points with derivative
  // weights ~1/h and ~1/h^2 (h = 0.1, control points ~3): their exact 0 comes out within an ulp of the
  // summed terms, ~1e-14 and ~2e-13 (measured 0 and 2.3e-13). A wrong end condition gives O(1).
  EXPECT_LT((traj.position(0.2) - q0).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((traj.position(1.7) - qf).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT(traj.velocity(0.2).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(traj.velocity(1.7).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(traj.acceleration(0.2).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_LT(traj.acceleration(1.7).cwiseAbs().maxCoeff(), 1e-11);
  // The trajectory does move in between (the test would pass trivially for a constant).
  EXPECT_GT(traj.velocity(0.9).norm(), 1e-3);
}

TEST(SplineParameterization, AtRestEndsKeepTheirPositionFree) {
  const auto p = make(mt::EndSpec::at_rest(), mt::EndSpec::free());
  const Eigen::VectorXd x = random_vector(p.num_variables(), 4);
  const mt::BsplineTrajectory traj = p.trajectory(x);
  // Same round-off as in BoundaryConditionsAreExact (measured 0, 0 and 2.3e-13).
  EXPECT_TRUE(traj.position(0.2).isApprox(x.head(4), 1e-15));  // slot 0 is the start posture
  EXPECT_LT(traj.velocity(0.2).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(traj.acceleration(0.2).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_GT(traj.velocity(1.7).norm(), 1e-3);  // free end: not at rest in general
}

TEST(SplineParameterization, VariablesInvertControlPoints) {
  const Eigen::VectorXd q0 = random_vector(4, 1);
  const auto p = make(mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::at_rest());
  const Eigen::VectorXd x = random_vector(p.num_variables(), 5);
  // The inverse of the affine map from variables to control points: an ulp (measured 3.6e-17 relative).
  EXPECT_TRUE(p.variables(p.control_points(x)).isApprox(x, 1e-15));
}

TEST(SampledBasis, MatchesDirectEvaluation) {
  const Eigen::VectorXd q0 = random_vector(4, 1);
  for (const auto& [start, end] : {std::pair{mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::at_rest()},
                                   std::pair{mt::EndSpec::free(), mt::EndSpec::fixed_at_rest(q0)}}) {
    const auto p = make(start, end);
    const mt::SampledBasis sampled(p, mt::uniform_time_grid(0.2, 1.7, 0.005));
    const Eigen::VectorXd x = random_vector(p.num_variables(), 6);
    mt::JointSamples s;
    sampled.evaluate(x, s);
    const mt::JointSamples direct = p.trajectory(x).sample(sampled.times());
    // Precomputed basis values against de Boor: the same sums in another order, the derivatives scaled by
    // 1/h and 1/h^2 (h = 0.1). Measured 3.3e-16, 8.3e-15 and 2.3e-13; the bounds are 30x-120x that. A
    // basis taken at the wrong sample or slot is O(0.1) off.
    EXPECT_LT((s.q - direct.q).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LT((s.qdot - direct.qdot).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((s.qddot - direct.qddot).cwiseAbs().maxCoeff(), 1e-11);
    for (int n = 0; n < sampled.num_samples(); ++n) ASSERT_LE(sampled.slot_count(n), mt::kOrder);
  }
}

TEST(SampledBasis, ChainRuleMatchesFiniteDifferences) {
  // y = sum_j a_j sin(q_j) + b_j qdot_j^2 + c_j qddot_j over joints {1, 3} at each sample: its gradient
  // w.r.t. x from chain_rule() must equal central differences of y(x) at the listed columns, and
  // vanish elsewhere.
  const Eigen::VectorXd q0 = random_vector(4, 1);
  const auto p = make(mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::at_rest());
  const mt::SampledBasis sampled(p, {0.2, 0.21, 0.5, 0.95, 1.33, 1.69, 1.7});
  const std::vector<int> joints = {1, 3};
  const Eigen::Vector2d a(0.7, -1.3), b(0.4, 0.9), c(-0.2, 0.5);
  const Eigen::VectorXd x = random_vector(p.num_variables(), 7);
  auto y = [&](const Eigen::VectorXd& xx, int n) {
    mt::JointSamples s;
    sampled.evaluate(xx, s);
    double v = 0.0;
    for (int i = 0; i < 2; ++i) {
      const int j = joints[i];
      v += a[i] * std::sin(s.q(j, n)) + b[i] * s.qdot(j, n) * s.qdot(j, n) + c[i] * s.qddot(j, n);
    }
    return v;
  };
  mt::JointSamples s;
  sampled.evaluate(x, s);
  for (int n = 0; n < sampled.num_samples(); ++n) {
    Eigen::Vector2d dq, dqd, dqdd;
    for (int i = 0; i < 2; ++i) {
      dq[i] = a[i] * std::cos(s.q(joints[i], n));
      dqd[i] = 2 * b[i] * s.qdot(joints[i], n);
      dqdd[i] = c[i];
    }
    std::vector<int> cols;
    sampled.append_columns(n, joints, cols);
    std::vector<double> vals(cols.size());
    sampled.chain_rule(n, joints, dq, dqd, dqdd, vals.data());
    Eigen::VectorXd analytic = Eigen::VectorXd::Zero(x.size());
    for (std::size_t k = 0; k < cols.size(); ++k) {
      if (k > 0) {
        ASSERT_LT(cols[k - 1], cols[k]);
      }
      analytic[cols[k]] = vals[k];
    }
    for (int i = 0; i < x.size(); ++i) {
      const double h = 1e-6;
      Eigen::VectorXd xp = x, xm = x;
      xp[i] += h;
      xm[i] -= h;
      const double fd = (y(xp, n) - y(xm, n)) / (2 * h);
      // Central differences, h = 1e-6: truncation ~h^2 y''' and round-off ~eps |y| / h, with y carrying
      // qddot terms of a few hundred: measured 2.5e-9 relative at worst; 1e-7 is 40x that. A missing or
      // misplaced chain-rule term is O(1).
      EXPECT_NEAR(analytic[i], fd, 1e-7 * std::max(1.0, std::abs(fd))) << "sample " << n << " column " << i;
    }
  }
}

TEST(SampledBasis, AllJointRowsUseAContiguousColumnRange) {
  const auto p = make(mt::EndSpec::at_rest(), mt::EndSpec::at_rest());
  const mt::SampledBasis sampled(p, mt::uniform_time_grid(0.2, 1.7, 0.01));
  const std::vector<int> all = {0, 1, 2, 3};
  for (int n = 0; n < sampled.num_samples(); ++n) {
    std::vector<int> cols;
    sampled.append_columns(n, all, cols);
    ASSERT_EQ(static_cast<int>(cols.size()), sampled.column_count(n));
    for (std::size_t k = 0; k < cols.size(); ++k)
      ASSERT_EQ(cols[k], sampled.first_column(n) + static_cast<int>(k));
  }
}

TEST(SampledBasis, ChainRuleTakesRowsOfColumnMajorMatrices) {
  // The dynamics hand out d tau / d q as column-major matrices: a row is a strided vector. Passing it
  // directly must give what a contiguous copy gives.
  const auto p = make(mt::EndSpec::at_rest(), mt::EndSpec::free());
  const mt::SampledBasis sampled(p, {0.2, 0.77, 1.7});
  const std::vector<int> joints = {0, 1, 2, 3};
  const Eigen::MatrixXd dq = Eigen::MatrixXd::Random(3, 4), dqd = Eigen::MatrixXd::Random(3, 4),
                        dqdd = Eigen::MatrixXd::Random(3, 4);
  for (int n = 0; n < sampled.num_samples(); ++n) {
    std::vector<double> strided(sampled.column_count(n)), copied(sampled.column_count(n));
    sampled.chain_rule(n, joints, dq.row(1).transpose(), dqd.row(1).transpose(), dqdd.row(1).transpose(),
                       strided.data());
    const Eigen::VectorXd a = dq.row(1).transpose(), b = dqd.row(1).transpose(), c = dqdd.row(1).transpose();
    sampled.chain_rule(n, joints, a, b, c, copied.data());
    EXPECT_EQ(strided, copied);
    // And it is the B-spline chain rule of eq. (24): slot k, joint j -> B_k dq_j + B'_k dqd_j + B''_k dqdd_j.
    for (int k = 0; k < sampled.slot_count(n); ++k) {
      for (int j = 0; j < 4; ++j) {
        const double expected = sampled.coefficient(n, 0, k) * a[j] + sampled.coefficient(n, 1, k) * b[j] +
                                sampled.coefficient(n, 2, k) * c[j];
        EXPECT_DOUBLE_EQ(strided[k * 4 + j], expected);
      }
    }
  }
}
