// compute_rnea_derivatives against central finite differences of rnea() on random states of HRP-2, with
// and without the free-flyer and external wrenches; structural zeros exact.
//
// Steps (derivatives_support.hpp explains the error measure):
//  * q: tau is a smooth trigonometric function of q with |f'''| ~ |f'| per unit angle, so the error
//    h^2/6 + eps/h (relative) is smallest near h = (3 eps)^(1/3) ~ 1e-5, where it is ~1e-10: the
//    1e-6 bound leaves four orders of margin.
//  * v: tau is exactly quadratic in v, so a central difference has no truncation error at any step; a
//    large step (1e-2) makes the round-off eps |tau| / h negligible (~1e-13).
//  * a: tau is affine in a: central differences are exact up to round-off; step 1.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "derivatives_support.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::ExternalForceDependence;
using dynamics::ExternalForces;
using model::RootType;

constexpr double kStepQ = 1e-5;
constexpr double kStepV = 1e-2;
constexpr double kStepA = 1.0;
constexpr double kTolerance = 1e-6;  // see the steps above: ~1e-10 achieved

enum class Wrenches { kNone, kBodyFixed, kWorldFixed };

// Checks the three Jacobians (and tau) at a random state against finite differences of rnea().
void check_against_finite_differences(RootType root, Wrenches wrenches, unsigned seed) {
  const model::Model& model = hrp2(root);
  std::mt19937 rng(seed);
  const State s = random_state(model, rng);
  // World-fixed wrenches are drawn in world coordinates; body-fixed ones in body frames.
  const ExternalForces drawn = random_wrenches(model, rng);
  const auto fext_at = [&](const VectorXd& q) {
    if (wrenches == Wrenches::kWorldFixed) return wrenches_at(model, q, drawn);
    return drawn;
  };

  model::Data data(model);
  const auto tau = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
    if (wrenches == Wrenches::kNone) return dynamics::rnea(model, data, q, v, a);
    return dynamics::rnea(model, data, q, v, a, fext_at(q));
  };

  DerivativeData dd(model);
  if (wrenches == Wrenches::kNone) {
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a);
  } else {
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext_at(s.q),
                                       wrenches == Wrenches::kBodyFixed
                                           ? ExternalForceDependence::kBodyFixed
                                           : ExternalForceDependence::kWorldFixed);
  }

  const VectorXd tau0 = tau(s.q, s.v, s.a);
  // The same recursion as rnea() with the derivative bookkeeping alongside: round-off only (1e-9 relative).
  EXPECT_LE((dd.tau - tau0).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, tau0.cwiseAbs().maxCoeff()));

  const MatrixXd fq = fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return tau(q, s.v, s.a); });
  const MatrixXd fv = fd_vec(s.v, kStepV, [&](const VectorXd& v) { return tau(s.q, v, s.a); });
  const MatrixXd fa = fd_vec(s.a, kStepA, [&](const VectorXd& a) { return tau(s.q, s.v, a); });
  EXPECT_LE(row_relative_error(dd.dtau_dq, fq), kTolerance) << "dtau/dq";
  EXPECT_LE(row_relative_error(dd.dtau_dv, fv), kTolerance) << "dtau/dv";
  EXPECT_LE(row_relative_error(dd.dtau_da, fa), kTolerance) << "dtau/da";
}

class RneaDerivatives : public ::testing::TestWithParam<std::tuple<RootType, Wrenches>> {};

TEST_P(RneaDerivatives, MatchFiniteDifferencesOnRandomStates) {
  const auto [root, wrenches] = GetParam();
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    check_against_finite_differences(root, wrenches, seed);
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<RootType, Wrenches>>& info) {
  static const char* const kWrenches[] = {"NoWrench", "BodyFixedWrench", "WorldFixedWrench"};
  const char* root = std::get<0>(info.param) == RootType::kFreeFlyer ? "FreeFlyer" : "FixedBase";
  return std::string(root) + kWrenches[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(Hrp2, RneaDerivatives,
                         ::testing::Combine(::testing::Values(RootType::kFreeFlyer, RootType::kFixed),
                                            ::testing::Values(Wrenches::kNone, Wrenches::kBodyFixed,
                                                              Wrenches::kWorldFixed)),
                         case_name);

// With v = 0 no velocity-dependent term exists: every entry of dtau/dv is bitwise +0.0 (not merely small,
// not -0.0), with or without external wrenches.
TEST(RneaDerivativesStructure, DtauDvIsExactlyZeroAtRest) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    std::mt19937 rng(11);
    State s = random_state(model, rng);
    s.v.setZero();
    const ExternalForces fext = random_wrenches(model, rng);
    DerivativeData dd(model);
    for (int mode = 0; mode < 3; ++mode) {
      if (mode == 0) dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a);
      if (mode == 1)
        dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext,
                                           ExternalForceDependence::kBodyFixed);
      if (mode == 2)
        dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext,
                                           ExternalForceDependence::kWorldFixed);
      for (int i = 0; i < model.nv; ++i)
        for (int j = 0; j < model.nv; ++j)
          ASSERT_EQ(dd.dtau_dv(i, j), 0.0) << i << ", " << j << " mode " << mode;
      // ... while dtau/dq is not (gravity and a, so the check above is not vacuous).
      EXPECT_GT(dd.dtau_dq.cwiseAbs().maxCoeff(), 1.0);
    }
  }
}

// Entries (i, j) where neither dof supports the other are exactly 0 in all three matrices; dtau/da = M is
// exactly symmetric; and the base-translation columns of dtau/dq are exactly 0 (the dynamics are
// invariant under translation in a uniform gravity field) when the wrenches follow the bodies.
TEST(RneaDerivativesStructure, SparsityPatternSymmetryAndTranslationInvariance) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    std::mt19937 rng(12);
    const State s = random_state(model, rng);
    DerivativeData dd(model);
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, random_wrenches(model, rng),
                                       ExternalForceDependence::kBodyFixed);
    int zeros = 0;
    for (int i = 0; i < model.nv; ++i) {
      for (int j = 0; j < model.nv; ++j) {
        EXPECT_EQ(dd.dtau_da(i, j), dd.dtau_da(j, i));
        if (related(model, i, j)) continue;
        ++zeros;
        EXPECT_EQ(dd.dtau_dq(i, j), 0.0);
        EXPECT_EQ(dd.dtau_dv(i, j), 0.0);
        EXPECT_EQ(dd.dtau_da(i, j), 0.0);
      }
    }
    EXPECT_GT(zeros, 0);
    if (root == RootType::kFreeFlyer) {
      EXPECT_EQ(dd.dtau_dq.leftCols<3>().cwiseAbs().maxCoeff(), 0.0);
      EXPECT_GT(dd.dtau_dq.middleCols<3>(3).cwiseAbs().maxCoeff(), 1.0);
    }
  }
}

// The matrices are not cleared between calls (only the support pattern is written): a DerivativeData
// reused across states must give bit-identical results to a fresh one.
TEST(RneaDerivativesStructure, ReuseGivesTheSameResultAsAFreshData) {
  const model::Model& model = hrp2(RootType::kFreeFlyer);
  std::mt19937 rng(13);
  const State s1 = random_state(model, rng);
  const State s2 = random_state(model, rng);
  const ExternalForces fext = random_wrenches(model, rng);
  DerivativeData reused(model), fresh(model);
  dynamics::compute_rnea_derivatives(model, reused, s1.q, s1.v, s1.a, fext,
                                     ExternalForceDependence::kWorldFixed);
  dynamics::compute_rnea_derivatives(model, reused, s2.q, s2.v, s2.a);
  dynamics::compute_rnea_derivatives(model, fresh, s2.q, s2.v, s2.a);
  EXPECT_TRUE(reused.tau == fresh.tau);
  EXPECT_TRUE(reused.dtau_dq == fresh.dtau_dq);
  EXPECT_TRUE(reused.dtau_dv == fresh.dtau_dv);
  EXPECT_TRUE(reused.dtau_da == fresh.dtau_da);
}

// Every result of a pass, and the intermediate rows the contact wrench's derivatives are read from, bitwise.
void expect_same_results(const DerivativeData& reused, const DerivativeData& fresh) {
  EXPECT_TRUE(reused.tau == fresh.tau);
  EXPECT_TRUE(reused.dtau_dq == fresh.dtau_dq);
  EXPECT_TRUE(reused.dtau_dv == fresh.dtau_dv);
  EXPECT_TRUE(reused.dtau_da == fresh.dtau_da);
  EXPECT_TRUE(reused.Ag == fresh.Ag);
  EXPECT_TRUE(reused.dFdq == fresh.dFdq);
  EXPECT_TRUE(reused.dFdv == fresh.dFdv);
}

// A second pass at the bitwise same (q, v, a) reuses the first one's forward pass
// (DerivativeData::forward_valid): the ground reaction's order, contact wrench then torques with the feet's
// wrenches (terms/sample_data.cpp), must give exactly what a fresh DerivativeData gives, and so must a pass
// at another state, or after another pass (the CoM's) overwrote the forward quantities in between.
TEST(RneaDerivativesStructure, ForwardPassReuseGivesExactlyAFreshPass) {
  for (const RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    std::mt19937 rng(29);
    const State s1 = random_state(model, rng);
    const State s2 = random_state(model, rng);
    const ExternalForces fext = random_wrenches(model, rng);
    dynamics::Matrix6x dW_dq(6, model.nv), dW_dv(6, model.nv), dW_da(6, model.nv);
    dynamics::Matrix3x dcom_dq(3, model.nv);
    const auto expect_fresh = [&](const DerivativeData& reused, const State& s, ExternalForceDependence dep) {
      DerivativeData fresh(model);
      dynamics::compute_rnea_derivatives(model, fresh, s.q, s.v, s.a, fext, dep);
      expect_same_results(reused, fresh);
    };
    for (const ExternalForceDependence dep :
         {ExternalForceDependence::kWorldFixed, ExternalForceDependence::kBodyFixed}) {
      DerivativeData reused(model);
      dynamics::contact_wrench_derivatives(model, reused, s1.q, s1.v, s1.a, dW_dq, dW_dv, dW_da);
      EXPECT_TRUE(reused.forward_valid);
      dynamics::compute_rnea_derivatives(model, reused, s1.q, s1.v, s1.a, fext, dep);
      expect_fresh(reused, s1, dep);
      // Twice in a row, then another state, then the CoM pass in between.
      dynamics::compute_rnea_derivatives(model, reused, s1.q, s1.v, s1.a, fext, dep);
      expect_fresh(reused, s1, dep);
      dynamics::compute_rnea_derivatives(model, reused, s2.q, s2.v, s2.a, fext, dep);
      expect_fresh(reused, s2, dep);
      dynamics::com_derivatives(model, reused, s2.q, dcom_dq);
      EXPECT_FALSE(reused.forward_valid);
      EXPECT_FALSE(reused.backward_valid);
      dynamics::compute_rnea_derivatives(model, reused, s2.q, s2.v, s2.a, fext, dep);
      expect_fresh(reused, s2, dep);
    }
  }
}

// The second pass at one state reuses the first backward pass's force-free parts too
// (DerivativeData::backward_valid): whatever the wrenches of either pass, and the contact wrench's pass after
// a pass with wrenches, the results are exactly a fresh DerivativeData's.
TEST(RneaDerivativesStructure, BackwardPassReuseGivesExactlyAFreshPass) {
  for (const RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    std::mt19937 rng(31);
    const State s = random_state(model, rng);
    const ExternalForces fext1 = random_wrenches(model, rng);
    const ExternalForces fext2 = random_wrenches(model, rng);
    const auto expect_same = [](const DerivativeData& reused, const DerivativeData& fresh) {
      expect_same_results(reused, fresh);
      EXPECT_TRUE(reused.of[0].f == fresh.of[0].f && reused.of[0].tau == fresh.of[0].tau);
    };
    DerivativeData reused(model);
    for (const ExternalForceDependence dep :
         {ExternalForceDependence::kWorldFixed, ExternalForceDependence::kBodyFixed}) {
      for (const ExternalForces* f : {&fext1, &fext2, &fext1}) {
        dynamics::compute_rnea_derivatives(model, reused, s.q, s.v, s.a, *f, dep);
        EXPECT_TRUE(reused.backward_valid);
        DerivativeData fresh(model);
        dynamics::compute_rnea_derivatives(model, fresh, s.q, s.v, s.a, *f, dep);
        expect_same(reused, fresh);
      }
      // Without wrenches, and the contact wrench's pass (no rows) after passes with wrenches.
      dynamics::compute_rnea_derivatives(model, reused, s.q, s.v, s.a);
      DerivativeData fresh(model);
      dynamics::compute_rnea_derivatives(model, fresh, s.q, s.v, s.a);
      expect_same(reused, fresh);
      dynamics::Matrix6x dW_dq(6, model.nv), dW_dv(6, model.nv), dW_da(6, model.nv);
      dynamics::Matrix6x fresh_dq(6, model.nv), fresh_dv(6, model.nv), fresh_da(6, model.nv);
      const spatial::Force W =
          dynamics::contact_wrench_derivatives(model, reused, s.q, s.v, s.a, dW_dq, dW_dv, dW_da);
      DerivativeData fresh_wrench(model);
      const spatial::Force W_fresh = dynamics::contact_wrench_derivatives(model, fresh_wrench, s.q, s.v, s.a,
                                                                          fresh_dq, fresh_dv, fresh_da);
      EXPECT_TRUE(W.f == W_fresh.f && W.tau == W_fresh.tau);
      EXPECT_TRUE(dW_dq == fresh_dq);
      EXPECT_TRUE(dW_dv == fresh_dv);
      EXPECT_TRUE(dW_da == fresh_da);
    }
  }
}

TEST(RneaDerivativesStructure, RejectsMismatchedSizes) {
  const model::Model& model = hrp2(RootType::kFreeFlyer);
  DerivativeData dd(model);
  const VectorXd q = model::neutral(model);
  const VectorXd v = VectorXd::Zero(model.nv);
  EXPECT_THROW(dynamics::compute_rnea_derivatives(model, dd, q, v, VectorXd::Zero(model.nv - 1)),
               std::invalid_argument);
  EXPECT_THROW(dynamics::compute_rnea_derivatives(model, dd, q, v, v, ExternalForces(2),
                                                  ExternalForceDependence::kBodyFixed),
               std::invalid_argument);
}

}  // namespace
}  // namespace mimic::test
