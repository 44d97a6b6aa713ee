// Frame kinematics on HRP-2 (free-flyer) against finite differences of forward kinematics:
//  * frame Jacobians (three reference frames) against d/deps of the frame placement along q ⊕ eps·v;
//  * frame_velocity == J v; frame acceleration and classical acceleration against differences of the
//    velocity / position along a trajectory;
//  * update_frame_placement(s) against oMi * placement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/explog.hpp"
#include "support/shared_data.hpp"

namespace mimic::dynamics {
namespace {

using Eigen::VectorXd;
using spatial::Motion;
using spatial::SE3;
using Matrix6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

class Kinematics : public ::testing::Test {
 protected:
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::Data data{model};
  std::mt19937 rng{99};

  SE3 frame_placement(const VectorXd& q, int frame) {
    model::Data d(model);
    forward_kinematics(model, d, q);
    return update_frame_placement(model, d, frame);
  }

  std::vector<int> test_frames() {
    return {model.frame_index("r_sole"), model.frame_index("l_gripper"), model.frame_index("gaze"),
            model.frame_index("BODY"), model.frame_index("CHEST_LINK1")};
  }
};

// Twist of a frame by central differences: local twist = log6(M(-eps)^{-1} M(eps)) / (2 eps) to O(eps²).
// eps = 1e-6: truncation ~1e-12, round-off ~1e-16/1e-6 = 1e-10 per unit velocity: tolerance 1e-8.
TEST_F(Kinematics, FrameJacobianMatchesFiniteDifferences) {
  const double eps = 1e-6;
  Matrix6X J(6, model.nv);
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = VectorXd::Random(model.nv);
    forward_kinematics(model, data, q, v);
    for (int f : test_frames()) {
      const SE3 Mp = frame_placement(model::integrate(model, q, eps * v), f);
      const SE3 Mm = frame_placement(model::integrate(model, q, -eps * v), f);
      const SE3 M0 = frame_placement(q, f);
      // local twist: M(t) = M0 exp(t V)  =>  V ≈ (log6(M0^-1 M(eps)) - log6(M0^-1 M(-eps))) / (2 eps)
      const Motion local = Motion::from_vector(
          (spatial::log6(M0.act_inv(Mp)).to_vector() - spatial::log6(M0.act_inv(Mm)).to_vector()) /
          (2 * eps));
      frame_jacobian(model, data, f, ReferenceFrame::kLocal, J);
      EXPECT_LE((J * v - local.to_vector()).norm(), 1e-8) << model.frames[f].name;
      EXPECT_LE((frame_velocity(model, data, f, ReferenceFrame::kLocal).to_vector() - J * v).norm(), 1e-12);

      frame_jacobian(model, data, f, ReferenceFrame::kLocalWorldAligned, J);
      const Motion lwa(M0.R * local.v, M0.R * local.w);
      EXPECT_LE((J * v - lwa.to_vector()).norm(), 1e-8) << model.frames[f].name;
      // linear part = derivative of the frame origin
      EXPECT_LE(((J * v).head<3>() - (Mp.p - Mm.p) / (2 * eps)).norm(), 1e-8);
      EXPECT_LE(
          (frame_velocity(model, data, f, ReferenceFrame::kLocalWorldAligned).to_vector() - J * v).norm(),
          1e-12);

      frame_jacobian(model, data, f, ReferenceFrame::kWorld, J);
      EXPECT_LE((J * v - M0.act(local).to_vector()).norm(), 1e-8) << model.frames[f].name;
      EXPECT_LE((frame_velocity(model, data, f, ReferenceFrame::kWorld).to_vector() - J * v).norm(), 1e-12);
    }
  }
}

// Accelerations: along q(t) = q ⊕ (t v + t²/2 a) the velocity is v + t a + O(t²) (even term, see
// rnea_properties.cpp), so d/dt of the frame's local twist at t = 0 is the spatial acceleration, and the
// second difference of its origin is the classical acceleration. eps = 1e-4 for the first derivative
// (truncation 1e-8, round-off 1e-12) -> 1e-6; eps = 1e-4 for the second difference (round-off
// 1e-16/1e-8 = 1e-8 per metre, truncation 1e-8) -> 1e-5.
TEST_F(Kinematics, FrameAccelerationsMatchFiniteDifferences) {
  const double eps = 1e-4;
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = VectorXd::Random(model.nv), a = VectorXd::Random(model.nv);
    const VectorXd qp = model::integrate(model, q, eps * v + 0.5 * eps * eps * a);
    const VectorXd qm = model::integrate(model, q, -eps * v + 0.5 * eps * eps * a);
    model::Data dp(model), dm(model);
    forward_kinematics(model, dp, qp, v + eps * a);
    forward_kinematics(model, dm, qm, v - eps * a);
    forward_kinematics(model, data, q, v, a);
    for (int f : test_frames()) {
      const Motion fd_local = Motion::from_vector(
          (frame_velocity(model, dp, f).to_vector() - frame_velocity(model, dm, f).to_vector()) / (2 * eps));
      EXPECT_LE((frame_acceleration(model, data, f).to_vector() - fd_local.to_vector()).norm(), 1e-6)
          << model.frames[f].name;
      const SE3 M0 = frame_placement(q, f);
      EXPECT_LE((frame_acceleration(model, data, f, ReferenceFrame::kWorld).to_vector() -
                 M0.act(fd_local).to_vector())
                    .norm(),
                1e-6);
      // classical: d²p/dt² and dω_world/dt
      const SE3 Mp = frame_placement(qp, f), Mm = frame_placement(qm, f);
      const Motion classical = frame_classical_acceleration(model, data, f);
      EXPECT_LE((classical.v - (Mp.p - 2 * M0.p + Mm.p) / (eps * eps)).norm(), 1e-5) << model.frames[f].name;
      const auto wp = frame_velocity(model, dp, f, ReferenceFrame::kLocalWorldAligned).w;
      const auto wm = frame_velocity(model, dm, f, ReferenceFrame::kLocalWorldAligned).w;
      EXPECT_LE((classical.w - (wp - wm) / (2 * eps)).norm(), 1e-6);
    }
  }
}

// The frame placements and the body placements agree; kLocal Jacobian of a body frame = body_jacobian.
TEST_F(Kinematics, FramePlacementsAndBodyJacobian) {
  const VectorXd q = model::random_configuration(model, rng);
  forward_kinematics(model, data, q);
  update_frame_placements(model, data);
  for (size_t f = 0; f < model.frames.size(); ++f)
    EXPECT_TRUE(data.oMf[f].isApprox(data.oMi[model.frames[f].body] * model.frames[f].placement, 1e-15));
  Matrix6X Jf(6, model.nv), Jb(6, model.nv);
  const int b = model.body_index("RARM_LINK5");
  frame_jacobian(model, data, model.frame_index("RARM_LINK5"), ReferenceFrame::kLocal, Jf);
  body_jacobian(model, data, b, ReferenceFrame::kLocal, Jb);
  EXPECT_TRUE(Jf.isApprox(Jb, 1e-14));
  // the right wrist does not depend on the legs, the left arm or the head
  for (const char* j : {"RLEG_JOINT3", "LARM_JOINT0", "HEAD_JOINT1"})
    EXPECT_TRUE(Jb.col(model.idx_v(model.joint_index(j))).isZero(0.0)) << j;
  EXPECT_FALSE(Jb.col(model.idx_v(model.joint_index("CHEST_JOINT0"))).isZero());
}

// Forward kinematics with q, v, a fills the same placements as with q alone, and the fixed-base model
// gives the same joint-side kinematics as the free-flyer one with the base at the identity at rest.
TEST_F(Kinematics, OverloadsAgreeAndFixedBaseMatches) {
  const VectorXd q = model::random_configuration(model, rng);
  const VectorXd v = VectorXd::Random(model.nv), a = VectorXd::Random(model.nv);
  model::Data d1(model), d2(model);
  forward_kinematics(model, d1, q);
  forward_kinematics(model, d2, q, v, a);
  for (int b = 0; b < model.nbodies; ++b) EXPECT_TRUE(d1.oMi[b].isApprox(d2.oMi[b], 0.0));

  const model::Model fixed =
      model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2(model::RootType::kFixed));
  model::Data df(fixed);
  VectorXd qf = q;
  qf.head<7>() << 0, 0, 0, 0, 0, 0, 1;
  VectorXd vf = v, af = a;
  vf.head<6>().setZero();
  af.head<6>().setZero();
  forward_kinematics(model, d1, qf, vf, af);
  forward_kinematics(fixed, df, q.tail(30), v.tail(30), a.tail(30));
  // Absolute + relative: the base body's v and a are exactly zero in both models, and a relative test
  // alone (isApprox) cannot compare a zero with a non-zero. The two models run the same joint-side
  // recursion from an identity base, so only the order of a few roundings may differ: measured
  // bit-identical (0); 1e-14 absolute (m/s, rad/s; |v|, |a| up to ~30) + 1e-14 relative leaves
  // room for another compiler contracting differently.
  const auto near = [](const spatial::Motion& x, const spatial::Motion& y) {
    return (x.to_vector() - y.to_vector()).norm() <= 1e-14 + 1e-14 * y.to_vector().norm();
  };
  double worst_v = 0.0, worst_a = 0.0;
  for (int b = 0; b < model.nbodies; ++b) {
    // SE3::isApprox is relative on R and absolute + relative on p; measured identical as well.
    EXPECT_TRUE(d1.oMi[b].isApprox(df.oMi[b], 1e-15));
    EXPECT_TRUE(near(d1.v[b], df.v[b]))
        << b << ": " << d1.v[b].to_vector().transpose() << " vs " << df.v[b].to_vector().transpose();
    EXPECT_TRUE(near(d1.a[b], df.a[b]))
        << b << ": " << d1.a[b].to_vector().transpose() << " vs " << df.a[b].to_vector().transpose();
    worst_v = std::max(worst_v, (d1.v[b].to_vector() - df.v[b].to_vector()).norm());
    worst_a = std::max(worst_a, (d1.a[b].to_vector() - df.a[b].to_vector()).norm());
  }
  std::printf("free-flyer vs fixed base: worst |dv| %.3g, |da| %.3g\n", worst_v, worst_a);
}

}  // namespace
}  // namespace mimic::dynamics
