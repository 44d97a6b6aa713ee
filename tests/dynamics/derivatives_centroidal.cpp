// Centre of mass, its velocity and acceleration, the contact wrench and the multibody ZMP: derivatives
// (com_derivatives.hpp, zmp_derivatives.hpp) against central finite differences of the foundation's com.hpp
// on random states of HRP-2, with and without the free-flyer; values equal to com.hpp's; structural zeros.
//
// Steps (error measure: derivatives_support.hpp):
//  * q: smooth trigonometric dependence: h = 1e-5 (truncation h^2/6 and round-off eps/h both ~1e-11).
//  * v: com velocity is linear and com acceleration / contact wrench quadratic in v: central differences
//    are exact up to round-off, h = 1e-2. a: they are affine in a, h = 1.
//  * The ZMP is a ratio (h f_x - tau_y) / f_z of such functions, smooth but not polynomial in v and a, with
//    f_z ~ m g far from 0: the same cube-root-optimal h = 1e-5 as for q, for q, v and a.
#include <gtest/gtest.h>

#include "derivatives_support.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/zmp_derivatives.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::Matrix2x;
using dynamics::Matrix3x;
using dynamics::Matrix6x;
using model::RootType;
using spatial::Vec3;

constexpr double kStepQ = 1e-5;
constexpr double kStepV = 1e-2;
constexpr double kStepA = 1.0;
constexpr double kStepZmp = 1e-5;
// The finite differences at these steps are good to ~1e-10 relative (derivatives_rnea.cpp); a wrong term
// is off by O(1). 1e-6 leaves four orders of margin for the difference itself.
constexpr double kTolerance = 1e-6;

class CentroidalDerivatives : public ::testing::TestWithParam<RootType> {};

TEST_P(CentroidalDerivatives, ComVelocityAndAccelerationMatchFiniteDifferences) {
  const model::Model& model = hrp2(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  Matrix3x dq(3, model.nv), dv(3, model.nv), da(3, model.nv);
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);

    // Values and Jacobian against com.hpp: the same sums in another order, round-off only (1e-12 m, or
    // relative to the value where it grows with v and a; the wrench sums 31 bodies, hence 1e-11).
    const Vec3 com = dynamics::com_derivatives(model, dd, s.q, dq);
    EXPECT_LE((com - dynamics::center_of_mass(model, data, s.q)).norm(), 1e-12);
    EXPECT_LE(row_relative_error(dq, fd_dq(model, s.q, kStepQ,
                                           [&](const VectorXd& q) -> VectorXd {
                                             return dynamics::center_of_mass(model, data, q);
                                           })),
              kTolerance)
        << "dcom/dq";
    const MatrixXd jcom = dynamics::com_jacobian(model, data, s.q);
    EXPECT_LE((dq - jcom).cwiseAbs().maxCoeff(), 1e-12);

    const auto vcom = [&](const VectorXd& q, const VectorXd& v) -> VectorXd {
      dynamics::center_of_mass(model, data, q, v);
      return data.vcom;
    };
    const Vec3 vc = dynamics::com_velocity_derivatives(model, dd, s.q, s.v, dq, dv);
    EXPECT_LE((vc - vcom(s.q, s.v)).norm(), 1e-12 * std::max(1.0, vc.norm()));
    EXPECT_LE(
        row_relative_error(dq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return vcom(q, s.v); })),
        kTolerance)
        << "dvcom/dq";
    EXPECT_LE(row_relative_error(dv, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return vcom(s.q, v); })),
              kTolerance)
        << "dvcom/dv";

    const auto acom = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
      dynamics::center_of_mass(model, data, q, v, a);
      return data.acom;
    };
    const Vec3 ac = dynamics::com_acceleration_derivatives(model, dd, s.q, s.v, s.a, dq, dv, da);
    EXPECT_LE((ac - acom(s.q, s.v, s.a)).norm(), 1e-11 * std::max(1.0, ac.norm()));
    EXPECT_LE(row_relative_error(
                  dq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return acom(q, s.v, s.a); })),
              kTolerance)
        << "dacom/dq";
    EXPECT_LE(
        row_relative_error(dv, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return acom(s.q, v, s.a); })),
        kTolerance)
        << "dacom/dv";
    EXPECT_LE(
        row_relative_error(da, fd_vec(s.a, kStepA, [&](const VectorXd& a) { return acom(s.q, s.v, a); })),
        kTolerance)
        << "dacom/da";
    EXPECT_LE((da - jcom).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST_P(CentroidalDerivatives, ContactWrenchMatchesFiniteDifferences) {
  const model::Model& model = hrp2(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  Matrix6x dq(6, model.nv), dv(6, model.nv), da(6, model.nv);
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);
    const auto wrench = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
      return dynamics::contact_wrench(model, data, q, v, a).to_vector();
    };
    const VectorXd W = dynamics::contact_wrench_derivatives(model, dd, s.q, s.v, s.a, dq, dv, da).to_vector();
    EXPECT_LE((W - wrench(s.q, s.v, s.a)).norm(), 1e-11 * W.norm());
    EXPECT_LE(row_relative_error(
                  dq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return wrench(q, s.v, s.a); })),
              kTolerance)
        << "dW/dq";
    EXPECT_LE(
        row_relative_error(dv, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return wrench(s.q, v, s.a); })),
        kTolerance)
        << "dW/dv";
    EXPECT_LE(
        row_relative_error(da, fd_vec(s.a, kStepA, [&](const VectorXd& a) { return wrench(s.q, s.v, a); })),
        kTolerance)
        << "dW/da";
  }
}

TEST_P(CentroidalDerivatives, ZmpMatchesFiniteDifferences) {
  const model::Model& model = hrp2(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  Matrix2x dq(2, model.nv), dv(2, model.nv), da(2, model.nv);
  int checked = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    for (double height : {0.0, 0.105}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " height " + std::to_string(height));
      std::mt19937 rng(seed);
      State s = random_state(model, rng);
      s.v *= 0.5;  // moderate motions: the ground pushes (f_z > 0), as for a supported robot
      s.a *= 0.5;
      const auto zmp = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
        return dynamics::zmp(model, data, q, v, a, height).value().head<2>();
      };
      const std::optional<Vec3> p = dynamics::zmp_derivatives(model, dd, s.q, s.v, s.a, height, dq, dv, da);
      ASSERT_TRUE(p.has_value());
      ++checked;
      // The value is zmp()'s ratio computed from the same wrench: round-off of the wrench (1e-11 relative).
      EXPECT_LE((p->head<2>() - zmp(s.q, s.v, s.a)).norm(), 1e-11 * std::max(1.0, p->norm()));
      EXPECT_EQ(p->z(), height);
      EXPECT_LE(row_relative_error(
                    dq, fd_dq(model, s.q, kStepZmp, [&](const VectorXd& q) { return zmp(q, s.v, s.a); })),
                kTolerance)
          << "dzmp/dq";
      EXPECT_LE(
          row_relative_error(dv, fd_vec(s.v, kStepZmp, [&](const VectorXd& v) { return zmp(s.q, v, s.a); })),
          kTolerance)
          << "dzmp/dv";
      EXPECT_LE(
          row_relative_error(da, fd_vec(s.a, kStepZmp, [&](const VectorXd& a) { return zmp(s.q, s.v, a); })),
          kTolerance)
          << "dzmp/da";
    }
  }
  EXPECT_EQ(checked, 12);
}

// No support (f_z <= threshold): no ZMP, outputs untouched.
TEST(CentroidalDerivativesStructure, NoZmpInFreeFall) {
  const model::Model& model = hrp2(RootType::kFreeFlyer);
  DerivativeData dd(model);
  const VectorXd q = model::neutral(model);
  const VectorXd v = VectorXd::Zero(model.nv);
  VectorXd a = VectorXd::Zero(model.nv);
  a.head<3>() = model.gravity;  // the base (and everything) falls with g: W = 0 (neutral: R = 1)
  Matrix2x dq = Matrix2x::Constant(2, model.nv, 7.0), dv = dq, da = dq;
  EXPECT_FALSE(dynamics::zmp_derivatives(model, dd, q, v, a, 0.0, dq, dv, da).has_value());
  EXPECT_TRUE((dq.array() == 7.0).all());
}

// At rest the velocity terms vanish exactly; translating the free-flyer does not change the centre-of-mass
// acceleration (uniform gravity): exact zeros, every entry.
TEST(CentroidalDerivativesStructure, ExactZeros) {
  for (RootType root : {RootType::kFreeFlyer, RootType::kFixed}) {
    const model::Model& model = hrp2(root);
    DerivativeData dd(model);
    std::mt19937 rng(9);
    State s = random_state(model, rng);
    s.v.setZero();
    Matrix3x q3(3, model.nv), v3(3, model.nv), a3(3, model.nv);
    Matrix6x q6(6, model.nv), v6(6, model.nv), a6(6, model.nv);
    Matrix2x q2(2, model.nv), v2(2, model.nv), a2(2, model.nv);
    dynamics::com_velocity_derivatives(model, dd, s.q, s.v, q3, v3);
    EXPECT_TRUE((q3.array() == 0.0).all()) << "dvcom/dq at rest";
    dynamics::com_acceleration_derivatives(model, dd, s.q, s.v, s.a, q3, v3, a3);
    EXPECT_TRUE((v3.array() == 0.0).all()) << "dacom/dv at rest";
    if (root == RootType::kFreeFlyer) {
      EXPECT_TRUE((q3.leftCols<3>().array() == 0.0).all()) << "translation";
    }
    dynamics::contact_wrench_derivatives(model, dd, s.q, s.v, s.a, q6, v6, a6);
    EXPECT_TRUE((v6.array() == 0.0).all()) << "dW/dv at rest";
    ASSERT_TRUE(dynamics::zmp_derivatives(model, dd, s.q, s.v, 0.1 * s.a, 0.0, q2, v2, a2).has_value());
    EXPECT_TRUE((v2.array() == 0.0).all()) << "dzmp/dv at rest";
    EXPECT_GT(q6.cwiseAbs().maxCoeff(), 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Hrp2, CentroidalDerivatives,
                         ::testing::Values(RootType::kFreeFlyer, RootType::kFixed), [](const auto& info) {
                           return std::string(info.param == RootType::kFreeFlyer ? "FreeFlyer" : "FixedBase");
                         });

}  // namespace
}  // namespace mimic::test
