// The derivative algorithms on a small branched robot that exercises what HRP-2 does not: prismatic
// joints, revolute joints about generic (non-axis-aligned) axes, rotated joint placements and full
// (non-diagonal) link inertias. Same checks as the HRP-2 tests (finite differences, error measure and
// steps of derivatives_support.hpp and derivatives_rnea.cpp), with and without the free-flyer.
#include <gtest/gtest.h>

#include "derivatives_support.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/dynamics/kinematics_derivatives.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"
#include "mimic/spatial/explog.hpp"
#include "support/generic_joint_robot.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::ExternalForceDependence;
using model::RootType;

constexpr double kStepQ = 1e-5;  // smooth trigonometric dependence on q (derivatives_rnea.cpp)
constexpr double kStepV = 1e-2;  // quadratic in v: exact central differences
constexpr double kStepA = 1.0;   // affine in a: exact central differences
// The finite differences at these steps are good to ~1e-10 relative (derivatives_rnea.cpp); a wrong term
// is off by O(1). 1e-6 leaves four orders of margin for the difference itself.
constexpr double kTolerance = 1e-6;

const model::Model& generic_model(RootType root) { return generic_joint_model(root); }

class GenericJoints : public ::testing::TestWithParam<RootType> {};

TEST_P(GenericJoints, ModelExercisesTheGeneralPaths) {
  const model::Model& model = generic_model(GetParam());
  bool prismatic = false, generic_axis = false, rotated_placement = false;
  for (int b = 1; b < model.nbodies; ++b) {
    prismatic |= model.joint_types[b] == model::JointType::kPrismatic;
    generic_axis |= model.axis_kinds[b] == model::AxisKind::kGeneric;
    rotated_placement |= !model.joint_placements[b].R.isIdentity(0.0);
  }
  EXPECT_TRUE(prismatic && generic_axis && rotated_placement);
  EXPECT_EQ(model.nj, 4);
}

TEST_P(GenericJoints, RneaDerivativesAndProductMatchFiniteDifferences) {
  const model::Model& model = generic_model(GetParam());
  model::Data data(model);
  DerivativeData dd(model), rev(model);
  for (int mode = 0; mode < 3; ++mode) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE("wrench mode " + std::to_string(mode) + " seed " + std::to_string(seed));
      std::mt19937 rng(seed);
      const State s = random_state(model, rng);
      const dynamics::ExternalForces drawn = random_wrenches(model, rng);
      const auto dependence =
          mode == 1 ? ExternalForceDependence::kBodyFixed : ExternalForceDependence::kWorldFixed;
      const auto tau = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
        if (mode == 0) return dynamics::rnea(model, data, q, v, a);
        return dynamics::rnea(model, data, q, v, a, mode == 2 ? wrenches_at(model, q, drawn) : drawn);
      };
      const VectorXd w = VectorXd::Random(model.nv);
      if (mode == 0) {
        dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a);
        dynamics::compute_rnea_vjp(model, rev, s.q, s.v, s.a, w);
      } else {
        const dynamics::ExternalForces fext = mode == 2 ? wrenches_at(model, s.q, drawn) : drawn;
        dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext, dependence);
        dynamics::compute_rnea_vjp(model, rev, s.q, s.v, s.a, w, fext, dependence);
      }
      // tau from the derivative pass is rnea()'s by the same recursion (round-off, 1e-10 relative); the VJP
      // against J^T w by a different one (1e-12 of the largest product, as in derivatives_vjp.cpp).
      EXPECT_LE((dd.tau - tau(s.q, s.v, s.a)).cwiseAbs().maxCoeff(), 1e-10 * dd.tau.cwiseAbs().maxCoeff());
      EXPECT_LE(row_relative_error(dd.dtau_dq, fd_dq(model, s.q, kStepQ,
                                                     [&](const VectorXd& q) { return tau(q, s.v, s.a); })),
                kTolerance);
      EXPECT_LE(row_relative_error(dd.dtau_dv,
                                   fd_vec(s.v, kStepV, [&](const VectorXd& v) { return tau(s.q, v, s.a); })),
                kTolerance);
      EXPECT_LE(row_relative_error(dd.dtau_da,
                                   fd_vec(s.a, kStepA, [&](const VectorXd& a) { return tau(s.q, s.v, a); })),
                kTolerance);
      const double scale = (w.cwiseAbs().asDiagonal() * dd.dtau_dq.cwiseAbs()).maxCoeff();
      EXPECT_LE((rev.vjp_dq - dd.dtau_dq.transpose() * w).cwiseAbs().maxCoeff(), 1e-12 * scale);
      EXPECT_LE((rev.vjp_dv - dd.dtau_dv.transpose() * w).cwiseAbs().maxCoeff(), 1e-12 * scale);
      EXPECT_LE((rev.vjp_da - dd.dtau_da.transpose() * w).cwiseAbs().maxCoeff(), 1e-12 * scale);
    }
  }
}

TEST_P(GenericJoints, FrameAndCentroidalDerivativesMatchFiniteDifferences) {
  const model::Model& model = generic_model(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  const int tip = model.frame_index("tip");
  dynamics::Matrix6x aq(6, model.nv), av(6, model.nv), aa(6, model.nv);
  dynamics::Matrix3x p3(3, model.nv), e3(3, model.nv), w3(3, model.nv);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);
    dynamics::forward_kinematics_derivatives(model, dd, s.q, s.v, s.a);

    dynamics::frame_position_derivative(model, dd, tip, p3);
    EXPECT_LE(row_relative_error(p3, fd_dq(model, s.q, kStepQ,
                                           [&](const VectorXd& q) -> VectorXd {
                                             dynamics::forward_kinematics(model, data, q);
                                             return dynamics::update_frame_placement(model, data, tip).p;
                                           })),
              kTolerance);
    const spatial::Mat3 R_ref = spatial::exp3(spatial::Vec3(0.3, -0.2, 0.5));
    dynamics::frame_orientation_error_derivative(model, dd, tip, R_ref, e3);
    EXPECT_LE(row_relative_error(e3, fd_dq(model, s.q, kStepQ,
                                           [&](const VectorXd& q) -> VectorXd {
                                             dynamics::forward_kinematics(model, data, q);
                                             return spatial::log3(
                                                 R_ref.transpose() *
                                                 dynamics::update_frame_placement(model, data, tip).R);
                                           })),
              kTolerance);

    for (auto rf : {dynamics::ReferenceFrame::kLocal, dynamics::ReferenceFrame::kLocalWorldAligned,
                    dynamics::ReferenceFrame::kWorld}) {
      dynamics::frame_acceleration_derivatives(model, dd, tip, rf, aq, av, aa);
      const auto acc = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
        dynamics::forward_kinematics(model, data, q, v, a);
        return dynamics::frame_acceleration(model, data, tip, rf).to_vector();
      };
      EXPECT_LE(row_relative_error(
                    aq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return acc(q, s.v, s.a); })),
                kTolerance);
      EXPECT_LE(
          row_relative_error(av, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return acc(s.q, v, s.a); })),
          kTolerance);
      EXPECT_LE(
          row_relative_error(aa, fd_vec(s.a, kStepA, [&](const VectorXd& a) { return acc(s.q, s.v, a); })),
          kTolerance);
    }

    const auto wrench = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
      return dynamics::contact_wrench(model, data, q, v, a).to_vector();
    };
    dynamics::contact_wrench_derivatives(model, dd, s.q, s.v, s.a, aq, av, aa);
    EXPECT_LE(row_relative_error(
                  aq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return wrench(q, s.v, s.a); })),
              kTolerance);
    EXPECT_LE(
        row_relative_error(av, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return wrench(s.q, v, s.a); })),
        kTolerance);
    EXPECT_LE(
        row_relative_error(aa, fd_vec(s.a, kStepA, [&](const VectorXd& a) { return wrench(s.q, s.v, a); })),
        kTolerance);

    dynamics::com_velocity_derivatives(model, dd, s.q, s.v, p3, w3);
    EXPECT_LE(row_relative_error(p3, fd_dq(model, s.q, kStepQ,
                                           [&](const VectorXd& q) -> VectorXd {
                                             dynamics::center_of_mass(model, data, q, s.v);
                                             return data.vcom;
                                           })),
              kTolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Synthetic, GenericJoints, ::testing::Values(RootType::kFreeFlyer, RootType::kFixed),
                         [](const auto& info) {
                           return std::string(info.param == RootType::kFreeFlyer ? "FreeFlyer" : "FixedBase");
                         });

}  // namespace
}  // namespace mimic::test
