// compute_rnea_vjp: w^T dtau/d(q, v, a) must equal w^T times the full Jacobians of
// compute_rnea_derivatives (themselves checked against finite differences in derivatives_rnea.cpp). The
// two are computed by different recursions, so they agree to round-off only: 1e-12 relative to the
// largest |w_i| |dtau_i/dx_k| product, which bounds the terms of the sum w^T J.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "derivatives_support.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::ExternalForceDependence;
using dynamics::ExternalForces;
using model::RootType;

double relative_gap(const VectorXd& vjp, const VectorXd& w, const MatrixXd& J) {
  const double scale = (w.cwiseAbs().asDiagonal() * J.cwiseAbs()).maxCoeff();
  return (vjp - J.transpose() * w).cwiseAbs().maxCoeff() / std::max(scale, 1e-300);
}

void check(RootType root, int mode, unsigned seed, bool at_rest) {
  const model::Model& model = hrp2(root);
  std::mt19937 rng(seed);
  State s = random_state(model, rng);
  if (at_rest) s.v.setZero();
  const ExternalForces fext = random_wrenches(model, rng);
  const VectorXd w = VectorXd::Random(model.nv);
  const auto dependence =
      mode == 1 ? ExternalForceDependence::kBodyFixed : ExternalForceDependence::kWorldFixed;

  DerivativeData full(model), rev(model);
  if (mode == 0) {
    dynamics::compute_rnea_derivatives(model, full, s.q, s.v, s.a);
    dynamics::compute_rnea_vjp(model, rev, s.q, s.v, s.a, w);
  } else {
    dynamics::compute_rnea_derivatives(model, full, s.q, s.v, s.a, fext, dependence);
    dynamics::compute_rnea_vjp(model, rev, s.q, s.v, s.a, w, fext, dependence);
  }
  EXPECT_LE((rev.tau - full.tau).cwiseAbs().maxCoeff(), 1e-12 * full.tau.cwiseAbs().maxCoeff());
  EXPECT_LE(relative_gap(rev.vjp_dq, w, full.dtau_dq), 1e-12);
  EXPECT_LE(relative_gap(rev.vjp_dv, w, full.dtau_dv), 1e-12);
  EXPECT_LE(relative_gap(rev.vjp_da, w, full.dtau_da), 1e-12);
  if (at_rest) {
    // No velocity-dependent term: bitwise +0.0, as dtau/dv.
    for (int k = 0; k < model.nv; ++k) EXPECT_EQ(std::bit_cast<std::uint64_t>(rev.vjp_dv[k]), 0u) << k;
  }
}

TEST(RneaVjp, EqualsWeightedFullJacobians) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    for (int mode = 0; mode < 3; ++mode) {
      for (unsigned seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE(::testing::Message() << "free-flyer " << (root == RootType::kFreeFlyer)
                                          << " wrench mode " << mode << " seed " << seed);
        check(root, mode, seed, /*at_rest=*/false);
        check(root, mode, seed, /*at_rest=*/true);
      }
    }
  }
}

// The use case of the brief: the gradient of tau^T tau is the product with w = 2 tau.
TEST(RneaVjp, GradientOfSquaredTorques) {
  const model::Model& model = hrp2(RootType::kFreeFlyer);
  std::mt19937 rng(5);
  const State s = random_state(model, rng);
  DerivativeData dd(model);
  dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a);
  const VectorXd w = 2.0 * dd.tau;
  dynamics::compute_rnea_vjp(model, dd, s.q, s.v, s.a, w);
  // Finite differences of the scalar tau^T tau along the tangent space (h = 1e-5, as for dtau/dq).
  model::Data data(model);
  const MatrixXd g = fd_dq(model, s.q, 1e-5, [&](const VectorXd& q) {
    return VectorXd::Constant(1, dynamics::rnea(model, data, q, s.v, s.a).squaredNorm());
  });
  EXPECT_LE(row_relative_error(dd.vjp_dq.transpose(), g), 1e-6);
}

TEST(RneaVjp, RejectsMismatchedSizes) {
  const model::Model& model = hrp2(RootType::kFixed);
  DerivativeData dd(model);
  const VectorXd z = VectorXd::Zero(model.nv);
  EXPECT_THROW(dynamics::compute_rnea_vjp(model, dd, z, z, z, VectorXd::Zero(3)), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::test
