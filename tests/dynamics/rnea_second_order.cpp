// RneaWeightedHessian: the Hessian of w^T tau over (q_J, v_J, a_J) must equal the finite differences of the
// ANALYTIC first derivatives w^T dtau/d(q, v, a) of compute_rnea_derivatives (a different recursion than the
// reverse-mode gradient the Hessian differentiates, rnea_vjp.hpp), all nine blocks, the three zero ones
// included. On HRP-2 (both roots, the retarget's 16 upper-body joints and all joints) and on the generic
// robot of tests/support/generic_joint_robot.hpp (prismatic joints, generic axes, full inertias) at random
// poses.
//
// Tolerance: both sides are differences of analytic gradients: central ones in q (h = 1e-5: truncation
// h^2 |g'''| / 6 and rounding eps |g| / h, each ~1e-10 of the gradient's scale) and exact ones in v and a
// (quadratic and affine). 1e-7 of the largest entry leaves three orders of margin; a missing or wrong term
// is off by O(1) of its block.
#include "mimic/dynamics/rnea_second_order.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "derivatives_support.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"
#include "support/generic_joint_robot.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using model::RootType;

constexpr double kStepQ = 1e-5;
constexpr double kStepV = 1e-2;  // quadratic in v: exact central differences
constexpr double kStepA = 1.0;   // affine in a: exact central differences
constexpr double kTolerance = 1e-7;

const model::Model& generic_model(RootType root) { return generic_joint_model(root); }

// w^T dtau/d(q_J, v_J, a_J) (3m) from the full analytic Jacobians.
VectorXd weighted_gradient(const model::Model& model, const VectorXd& q, const VectorXd& v, const VectorXd& a,
                           const VectorXd& w, const std::vector<int>& joints) {
  DerivativeData d(model);
  dynamics::compute_rnea_derivatives(model, d, q, v, a);
  const auto m = static_cast<Eigen::Index>(joints.size());
  VectorXd g(3 * m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const int k = model.idx_v(joints[static_cast<std::size_t>(i)]);
    g[i] = w.dot(d.dtau_dq.col(k));
    g[m + i] = w.dot(d.dtau_dv.col(k));
    g[2 * m + i] = w.dot(d.dtau_da.col(k));
  }
  return g;
}

void check(const model::Model& model, const std::vector<int>& joints, unsigned seed) {
  std::mt19937 rng(seed);
  const State s = random_state(model, rng);
  const VectorXd w = 100.0 * VectorXd::Random(model.nv);
  Eigen::MatrixXd h;
  dynamics::RneaWeightedHessian hessian(model);
  hessian.compute(s.q, s.v, s.a, w, joints, h);
  const auto m = static_cast<Eigen::Index>(joints.size());
  ASSERT_EQ(h.rows(), 3 * m);
  ASSERT_EQ(h.cols(), 3 * m);

  Eigen::MatrixXd fd(3 * m, 3 * m);
  for (Eigen::Index c = 0; c < m; ++c) {
    const int j = joints[static_cast<std::size_t>(c)];
    for (int block = 0; block < 3; ++block) {
      const double step = block == 0 ? kStepQ : block == 1 ? kStepV : kStepA;
      VectorXd qp = s.q, qm = s.q, vp = s.v, vm = s.v, ap = s.a, am = s.a;
      (block == 0 ? qp : block == 1 ? vp : ap)[block == 0 ? model.idx_q(j) : model.idx_v(j)] += step;
      (block == 0 ? qm : block == 1 ? vm : am)[block == 0 ? model.idx_q(j) : model.idx_v(j)] -= step;
      fd.col(block * m + c) = (weighted_gradient(model, qp, vp, ap, w, joints) -
                               weighted_gradient(model, qm, vm, am, w, joints)) /
                              (2.0 * step);
    }
  }
  const double scale = fd.cwiseAbs().maxCoeff();
  ASSERT_GT(scale, 0.0);
  EXPECT_LE((h - fd).cwiseAbs().maxCoeff(), kTolerance * scale) << "largest entry " << scale;
  // The structural zeros (header): exactly zero in H, and at the differences' rounding in fd.
  EXPECT_EQ(h.block(m, 2 * m, m, m).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(h.block(2 * m, m, m, 2 * m).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LE(fd.block(2 * m, m, m, 2 * m).cwiseAbs().maxCoeff(), kTolerance * scale);
  EXPECT_TRUE(h.isApprox(h.transpose(), 0.0));
}

std::vector<int> all_joints(const model::Model& model) {
  std::vector<int> joints(static_cast<std::size_t>(model.nj));
  std::iota(joints.begin(), joints.end(), 0);
  return joints;
}

TEST(RneaWeightedHessian, Hrp2MatchesDifferencesOfTheAnalyticJacobians) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    // 16 joints after the legs (chest, head, arms: about the retarget's active set) and all of them.
    std::vector<int> upper;
    for (int j = 12; j < 28; ++j) upper.push_back(j);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(::testing::Message()
                   << "free-flyer " << (root == RootType::kFreeFlyer) << " seed " << seed);
      check(model, upper, seed);
      check(model, all_joints(model), seed);
    }
  }
}

TEST(RneaWeightedHessian, GenericRobotMatchesDifferencesOfTheAnalyticJacobians) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = generic_model(root);
    for (unsigned seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(::testing::Message()
                   << "free-flyer " << (root == RootType::kFreeFlyer) << " seed " << seed);
      check(model, all_joints(model), seed);
      check(model, {2, 0}, seed);  // a subset, out of order
    }
  }
}

// The Hessian as it was computed before its passes ran over subtrees (rnea_second_order.hpp): every pass a
// full compute_rnea_vjp.
Eigen::MatrixXd full_pass_hessian(const model::Model& model, const VectorXd& q, const VectorXd& v,
                                  const VectorXd& a, const VectorXd& w, const std::vector<int>& joints) {
  constexpr double kStep = 1e-5;  // rnea_second_order.cpp's
  DerivativeData d(model);
  const auto m = static_cast<Eigen::Index>(joints.size());
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(3 * m, 3 * m);
  VectorXd qs = q, vs = v;
  for (Eigen::Index c = 0; c < m; ++c) {
    const int iq = model.idx_q(joints[static_cast<std::size_t>(c)]);
    qs[iq] = q[iq] + kStep;
    dynamics::compute_rnea_vjp(model, d, qs, v, a, w);
    const VectorXd gq = d.vjp_dq, gv = d.vjp_dv, ga = d.vjp_da;
    qs[iq] = q[iq] - kStep;
    dynamics::compute_rnea_vjp(model, d, qs, v, a, w);
    qs[iq] = q[iq];
    for (Eigen::Index r = 0; r < m; ++r) {
      const int k = model.idx_v(joints[static_cast<std::size_t>(r)]);
      h(r, c) = (gq[k] - d.vjp_dq[k]) / (2.0 * kStep);
      h(m + r, c) = (gv[k] - d.vjp_dv[k]) / (2.0 * kStep);
      h(2 * m + r, c) = (ga[k] - d.vjp_da[k]) / (2.0 * kStep);
    }
  }
  dynamics::compute_rnea_vjp(model, d, q, v, a, w);
  const VectorXd gv0 = d.vjp_dv;
  for (Eigen::Index c = 0; c < m; ++c) {
    const int k = model.idx_v(joints[static_cast<std::size_t>(c)]);
    vs[k] = v[k] + 1.0;
    dynamics::compute_rnea_vjp(model, d, q, vs, a, w);
    vs[k] = v[k];
    for (Eigen::Index r = 0; r < m; ++r)
      h(m + r, m + c) = d.vjp_dv[model.idx_v(joints[static_cast<std::size_t>(r)])] -
                        gv0[model.idx_v(joints[static_cast<std::size_t>(r)])];
  }
  const Eigen::MatrixXd qq = h.topLeftCorner(m, m);
  h.topLeftCorner(m, m) = 0.5 * (qq + qq.transpose());
  const Eigen::MatrixXd vv = h.block(m, m, m, m);
  h.block(m, m, m, m) = 0.5 * (vv + vv.transpose());
  h.block(0, m, m, m) = h.block(m, 0, m, m).transpose();
  h.block(0, 2 * m, m, m) = h.block(2 * m, 0, m, m).transpose();
  return h;
}

// The passes over the changed joint's subtree give every entry bit for bit as full passes do: on HRP-2 and
// the generic robot, for all joints, a subset out of order and a joint listed twice; one object reused over
// several states (a subtree left at a perturbed value, or own terms not restored, would show in the next
// column or call).
TEST(RneaWeightedHessian, SubtreePassesAreBitwiseFullPasses) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    for (const model::Model* model : {&hrp2(root), &generic_model(root)}) {
      dynamics::RneaWeightedHessian hessian(*model);
      const std::vector<std::vector<int>> lists = {all_joints(*model), {2, 0}, {1, 1, model->nj - 1}};
      for (unsigned seed = 1; seed <= 3; ++seed) {
        std::mt19937 rng(seed);
        const State s = random_state(*model, rng);
        const VectorXd w = 100.0 * VectorXd::Random(model->nv);
        for (const std::vector<int>& joints : lists) {
          SCOPED_TRACE(::testing::Message() << "free-flyer " << (root == RootType::kFreeFlyer) << " nj "
                                            << model->nj << " seed " << seed << " joints " << joints.size());
          Eigen::MatrixXd h;
          hessian.compute(s.q, s.v, s.a, w, joints, h);
          const Eigen::MatrixXd expected = full_pass_hessian(*model, s.q, s.v, s.a, w, joints);
          ASSERT_EQ(h.rows(), expected.rows());
          EXPECT_TRUE((h.array() == expected.array()).all())
              << "largest difference " << (h - expected).cwiseAbs().maxCoeff();
        }
      }
    }
  }
}

TEST(RneaWeightedHessian, RejectsMismatchedSizes) {
  const model::Model& model = hrp2(RootType::kFixed);
  dynamics::RneaWeightedHessian hessian(model);
  const VectorXd q = VectorXd::Zero(model.nq), v = VectorXd::Zero(model.nv);
  Eigen::MatrixXd h;
  const std::vector<int> joints = {0};
  EXPECT_THROW(hessian.compute(q, v, v, VectorXd::Zero(model.nv + 1), joints, h), std::invalid_argument);
  const std::vector<int> bad = {model.nj};
  EXPECT_THROW(hessian.compute(q, v, v, v, bad, h), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::test
