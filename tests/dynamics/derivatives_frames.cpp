// Frame placement, velocity and acceleration derivatives (frame_derivatives.hpp) against central finite
// differences of the foundation's forward kinematics (kinematics.hpp) on random states of HRP-2, with and
// without the free-flyer, in the three ReferenceFrames; values equal to frame_velocity/frame_acceleration;
// structural zeros exact.
//
// Steps (error measure: derivatives_support.hpp):
//  * q: placements, velocities and accelerations are smooth trigonometric functions of q: h = 1e-5, where
//    truncation h^2/6 and round-off eps/h are both ~1e-11 relative.
//  * v: the velocity is linear and the acceleration quadratic in v, so central differences are exact up
//    to round-off at any step: h = 1e-2.
//  * a: the acceleration is affine in a: h = 1.
#include <gtest/gtest.h>

#include "derivatives_support.hpp"
#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/dynamics/kinematics_derivatives.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::Matrix3x;
using dynamics::Matrix6x;
using dynamics::ReferenceFrame;
using model::RootType;
using spatial::Vec3;

constexpr double kStepQ = 1e-5;
constexpr double kStepV = 1e-2;
constexpr double kStepA = 1.0;
// The finite differences at these steps are good to ~1e-10 relative (derivatives_rnea.cpp); a wrong term
// is off by O(1). 1e-6 leaves four orders of margin for the difference itself.
constexpr double kTolerance = 1e-6;

const char* const kFrames[] = {"r_sole", "l_sole", "r_gripper", "l_gripper", "gaze", "BODY", "CHEST_LINK1"};
const ReferenceFrame kReferenceFrames[] = {ReferenceFrame::kLocal, ReferenceFrame::kLocalWorldAligned,
                                           ReferenceFrame::kWorld};

VectorXd vec(const spatial::Motion& m) { return m.to_vector(); }

class FrameDerivatives : public ::testing::TestWithParam<RootType> {};

TEST_P(FrameDerivatives, PlacementMatchesFiniteDifferences) {
  const model::Model& model = hrp2(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  Matrix3x dp(3, model.nv), de(3, model.nv);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);
    dynamics::forward_kinematics_derivatives(model, dd, s.q);
    for (const char* name : kFrames) {
      SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
      const int f = model.frame_index(name);
      const auto placement = [&](const VectorXd& q) {
        dynamics::forward_kinematics(model, data, q);
        return dynamics::update_frame_placement(model, data, f);
      };
      // A reference orientation up to ~2 rad away from the frame's, so that log3 is smooth around it.
      const Vec3 offset = 2.0 * Vec3::Random() / std::sqrt(3.0);
      const spatial::Mat3 R_ref = placement(s.q).R * spatial::exp3(offset);

      // Values: the same kinematics by another recursion, equal up to round-off of metre-scale sums (1e-12).
      const Vec3 p = dynamics::frame_position_derivative(model, dd, f, dp);
      EXPECT_LE((p - placement(s.q).p).norm(), 1e-12);
      EXPECT_LE(row_relative_error(dp, fd_dq(model, s.q, kStepQ,
                                             [&](const VectorXd& q) -> VectorXd { return placement(q).p; })),
                kTolerance);

      const Vec3 e = dynamics::frame_orientation_error_derivative(model, dd, f, R_ref, de);
      EXPECT_LE((e - spatial::log3(R_ref.transpose() * placement(s.q).R)).norm(), 1e-12);
      EXPECT_LE(row_relative_error(de, fd_dq(model, s.q, kStepQ,
                                             [&](const VectorXd& q) -> VectorXd {
                                               return spatial::log3(R_ref.transpose() * placement(q).R);
                                             })),
                kTolerance);
    }
  }
}

TEST_P(FrameDerivatives, VelocityAndAccelerationMatchFiniteDifferences) {
  const model::Model& model = hrp2(GetParam());
  model::Data data(model);
  DerivativeData dd(model);
  Matrix6x dq(6, model.nv), dv(6, model.nv), da(6, model.nv);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);
    dynamics::forward_kinematics_derivatives(model, dd, s.q, s.v, s.a);
    for (const char* name : kFrames) {
      const int f = model.frame_index(name);
      for (ReferenceFrame rf : kReferenceFrames) {
        SCOPED_TRACE(std::string(name) + " rf " + std::to_string(static_cast<int>(rf)) + " seed " +
                     std::to_string(seed));
        const auto velocity = [&](const VectorXd& q, const VectorXd& v) -> VectorXd {
          dynamics::forward_kinematics(model, data, q, v);
          return vec(dynamics::frame_velocity(model, data, f, rf));
        };
        const auto acceleration = [&](const VectorXd& q, const VectorXd& v, const VectorXd& a) -> VectorXd {
          dynamics::forward_kinematics(model, data, q, v, a);
          return vec(dynamics::frame_acceleration(model, data, f, rf));
        };

        const spatial::Motion vel = dynamics::frame_velocity_derivatives(model, dd, f, rf, dq, dv);
        const VectorXd vel_ref = velocity(s.q, s.v);
        // Round-off only (another recursion for the same sums): 1e-12 relative to the value, floor 1.
        EXPECT_LE((vec(vel) - vel_ref).norm(), 1e-12 * std::max(1.0, vel_ref.norm()));
        EXPECT_LE(row_relative_error(
                      dq, fd_dq(model, s.q, kStepQ, [&](const VectorXd& q) { return velocity(q, s.v); })),
                  kTolerance)
            << "dv/dq";
        EXPECT_LE(
            row_relative_error(dv, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return velocity(s.q, v); })),
            kTolerance)
            << "dv/dv";

        Matrix6x aq(6, model.nv), av(6, model.nv), aa(6, model.nv);
        const spatial::Motion acc = dynamics::frame_acceleration_derivatives(model, dd, f, rf, aq, av, aa);
        const VectorXd acc_ref = acceleration(s.q, s.v, s.a);
        EXPECT_LE((vec(acc) - acc_ref).norm(), 1e-12 * std::max(1.0, acc_ref.norm()));
        EXPECT_LE(row_relative_error(aq, fd_dq(model, s.q, kStepQ,
                                               [&](const VectorXd& q) { return acceleration(q, s.v, s.a); })),
                  kTolerance)
            << "da/dq";
        EXPECT_LE(row_relative_error(
                      av, fd_vec(s.v, kStepV, [&](const VectorXd& v) { return acceleration(s.q, v, s.a); })),
                  kTolerance)
            << "da/dv";
        EXPECT_LE(row_relative_error(
                      aa, fd_vec(s.a, kStepA, [&](const VectorXd& a) { return acceleration(s.q, s.v, a); })),
                  kTolerance)
            << "da/da";
        // da/da and dv/dv are both the frame Jacobian.
        EXPECT_TRUE(aa == dv);
      }
    }
  }
}

// At rest (v = 0) the velocity does not depend on q and the acceleration not on v: exactly 0, every entry.
// Columns of dofs that do not support the frame are exactly 0 as well.
TEST_P(FrameDerivatives, StructuralZerosAreExact) {
  const model::Model& model = hrp2(GetParam());
  DerivativeData dd(model);
  std::mt19937 rng(7);
  State s = random_state(model, rng);
  s.v.setZero();
  dynamics::forward_kinematics_derivatives(model, dd, s.q, s.v, s.a);
  Matrix6x dq(6, model.nv), dv(6, model.nv), aq(6, model.nv), av(6, model.nv), aa(6, model.nv);
  const int f = model.frame_index("r_sole");
  const int left_leg_first = model.idx_v(model.joint_index("LLEG_JOINT0"));
  for (ReferenceFrame rf : kReferenceFrames) {
    dynamics::frame_velocity_derivatives(model, dd, f, rf, dq, dv);
    dynamics::frame_acceleration_derivatives(model, dd, f, rf, aq, av, aa);
    for (int i = 0; i < 6; ++i) {
      for (int c = 0; c < model.nv; ++c) {
        EXPECT_EQ(dq(i, c), 0.0);
        EXPECT_EQ(av(i, c), 0.0);
      }
      for (int c = left_leg_first; c < model.nv; ++c) {  // the right sole does not depend on these dofs
        EXPECT_EQ(aq(i, c), 0.0);
        EXPECT_EQ(dv(i, c), 0.0);
      }
    }
    EXPECT_GT(aq.cwiseAbs().maxCoeff(), 0.1);  // not vacuous: gravity-free a still moves with q
  }
}

INSTANTIATE_TEST_SUITE_P(Hrp2, FrameDerivatives, ::testing::Values(RootType::kFreeFlyer, RootType::kFixed),
                         [](const auto& info) {
                           return std::string(info.param == RootType::kFreeFlyer ? "FreeFlyer" : "FixedBase");
                         });

}  // namespace
}  // namespace mimic::test
