// Floating-base RNEA on HRP-2 checked against quantities computed without it:
//  * the base wrench equals the rate of total momentum minus gravity (finite differences of the momentum
//    along a trajectory, and the analytic momentum rate);
//  * the mass matrix built from RNEA columns is symmetric positive definite and 1/2 v^T M v equals the
//  kinetic
//    energy summed from the body twists;
//  * static torques equal the gradient of the potential energy (virtual work, by finite differences of the
//    centre of mass) and -M Jcom^T g;
//  * external wrenches enter as -J^T f.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "support/shared_data.hpp"

namespace mimic::dynamics {
namespace {

using Eigen::VectorXd;
using spatial::Force;
using spatial::Motion;
using spatial::Vec3;

class FloatingBase : public ::testing::Test {
 protected:
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::Data data{model};
  std::mt19937 rng{2024};

  VectorXd random_v(double scale = 1.0) { return scale * VectorXd::Random(model.nv); }

  Force total_momentum(const VectorXd& q, const VectorXd& v) {
    model::Data d(model);
    return momentum(model, d, q, v);
  }

  // Base wrench from RNEA, moved to the world frame (about the world origin).
  Force base_wrench_world(const VectorXd& q, const VectorXd& v, const VectorXd& a) {
    const VectorXd& tau = rnea(model, data, q, v, a);
    return model::base_placement(model, q).act(Force::from_vector(tau.head<6>()));
  }

  Force gravity_wrench(const VectorXd& q) {
    model::Data d(model);
    const Vec3 c = center_of_mass(model, d, q);
    const Vec3 weight = d.mass * model.gravity;
    return Force(weight, c.cross(weight));
  }
};

// Base wrench == dh/dt - gravity wrench, with dh/dt by central differences of h(t) along
// q(t) = q0 ⊕ (t v + t²/2 a), whose velocity is v + t a + O(t²) with an even O(t²) term (ad_v v = 0), so the
// central difference is O(eps²) accurate. eps = 1e-4: truncation ~eps² |h'''| ~ 1e-8 · 100, round-off
// ~1e-16 |h| / eps ~ 1e-10; relative tolerance 1e-5 of the wrench (~500 N).
TEST_F(FloatingBase, BaseWrenchIsMomentumRateMinusGravityFiniteDifferences) {
  const double eps = 1e-4;
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = random_v(), a = random_v(5.0);
    const VectorXd qp = model::integrate(model, q, eps * v + 0.5 * eps * eps * a);
    const VectorXd qm = model::integrate(model, q, -eps * v + 0.5 * eps * eps * a);
    const Force hp = total_momentum(qp, v + eps * a), hm = total_momentum(qm, v - eps * a);
    const Force dh = (1.0 / (2 * eps)) * (hp - hm);
    const Force expected = dh - gravity_wrench(q);
    const Force got = base_wrench_world(q, v, a);
    EXPECT_LE((got.to_vector() - expected.to_vector()).norm(), 1e-5 * expected.to_vector().norm()) << trial;
  }
}

// Same identity with the analytic momentum rate of com.hpp (sum of per-body Newton-Euler wrenches, no
// recursion): both sides exact, so round-off only: 1e-10 relative.
TEST_F(FloatingBase, BaseWrenchIsAnalyticMomentumRateMinusGravity) {
  for (int trial = 0; trial < 100; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = random_v(3.0), a = random_v(10.0);
    model::Data d(model);
    const Force expected = momentum_rate(model, d, q, v, a) - gravity_wrench(q);
    const Force got = base_wrench_world(q, v, a);
    EXPECT_LE((got.to_vector() - expected.to_vector()).norm(), 1e-10 * expected.to_vector().norm());
    // contact_wrench is the same quantity
    EXPECT_TRUE(contact_wrench(model, d, q, v, a).isApprox(got, 1e-10));
  }
}

// M from RNEA columns: M e_i = rnea(q, 0, e_i) - rnea(q, 0, 0). Symmetric and positive definite; the kinetic
// energy 1/2 v^T M v equals sum_b 1/2 <Y_b v_b, v_b> with the body twists of forward kinematics. Both are
// exact identities: 1e-10 relative (entries up to ~60 kg, round-off ~1e-14).
TEST_F(FloatingBase, MassMatrixFromRneaIsSpdAndGivesKineticEnergy) {
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd zero = VectorXd::Zero(model.nv);
    const VectorXd g = rnea(model, data, q, zero, zero);
    Eigen::MatrixXd M(model.nv, model.nv);
    for (int i = 0; i < model.nv; ++i) M.col(i) = rnea(model, data, q, zero, VectorXd::Unit(model.nv, i)) - g;
    EXPECT_LE((M - M.transpose()).norm(), 1e-10 * M.norm());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (M + M.transpose()));
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
    EXPECT_NEAR(M(0, 0), model.total_mass(), 1e-10);  // base linear block = total mass

    const VectorXd v = random_v(2.0);
    forward_kinematics(model, data, q, v);
    double kinetic = 0.0;
    for (int b = 0; b < model.nbodies; ++b) kinetic += model.inertias[b].kinetic_energy(data.v[b]);
    EXPECT_NEAR(0.5 * v.dot(M * v), kinetic, 1e-10 * kinetic);
    // and rnea(q, v, a) = M a + rnea(q, v, 0)
    const VectorXd a = random_v(3.0);
    const VectorXd nle = nonlinear_effects(model, data, q, v);
    EXPECT_TRUE(rnea(model, data, q, v, a).isApprox(M * a + nle, 1e-10));
  }
}

// Static pose: tau = dU/dq with U = -m g·com (virtual work), by central differences of the CoM along each
// velocity direction q ⊕ (±eps e_i); eps = 1e-6: truncation eps²·|U'''| ~ 1e-12·600, round-off
// 1e-16·600/1e-6 ~ 6e-8 N m: tolerance 1e-6 N m (torques up to ~200 N m). Also tau = -m Jcom^T g exactly.
TEST_F(FloatingBase, StaticTorquesAreGravityCompensation) {
  const double eps = 1e-6;
  const model::RobotDescription& description = model::default_robot_description();
  for (int trial = 0; trial < 10; ++trial) {
    const VectorXd q = trial == 0 ? description.nominal_q(model) : model::random_configuration(model, rng);
    const VectorXd tau = gravity_torques(model, data, q);
    model::Data d(model);
    const double m = model.total_mass();
    for (int i = 0; i < model.nv; ++i) {
      const VectorXd e = VectorXd::Unit(model.nv, i) * eps;
      const double up = -m * model.gravity.dot(center_of_mass(model, d, model::integrate(model, q, e)));
      const double um = -m * model.gravity.dot(center_of_mass(model, d, model::integrate(model, q, -e)));
      EXPECT_NEAR(tau[i], (up - um) / (2 * eps), 1e-6) << "dof " << i;
    }
    const VectorXd jt = -m * com_jacobian(model, d, q).transpose() * model.gravity;
    EXPECT_TRUE(tau.isApprox(jt, 1e-10));
    // a static pose in a gravity field: the base must carry the whole weight
    const Force base = model::base_placement(model, q).act(Force::from_vector(tau.head<6>()));
    EXPECT_NEAR(base.f.z(), m * 9.81, 1e-9);
    EXPECT_NEAR(base.f.head<2>().norm(), 0.0, 1e-9);
  }
}

// RNEA with external wrenches = RNEA without them - sum_b J_b^T fext_b, with J_b the body Jacobian in the
// body frame (wrenches are expressed in the body frames). Exact identity: 1e-10 relative.
TEST_F(FloatingBase, ExternalWrenchesEnterAsJacobianTranspose) {
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = random_v(), a = random_v();
    ExternalForces fext(model.nbodies, Force::Zero());
    VectorXd expected = rnea(model, data, q, v, a);
    forward_kinematics(model, data, q);
    Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, model.nv);
    for (const char* link : {"BODY", "RLEG_LINK5", "LLEG_LINK5", "RARM_LINK6", "HEAD_LINK1"}) {
      const int b = model.body_index(link);
      fext[b] = Force::from_vector(50.0 * spatial::Vec6::Random());
      body_jacobian(model, data, b, ReferenceFrame::kLocal, J);
      expected -= J.transpose() * fext[b].to_vector();
    }
    EXPECT_TRUE(rnea(model, data, q, v, a, fext).isApprox(expected, 1e-10));
  }
}

// Standing in half-sitting with each foot carrying half the weight at the ankle projection of the CoM:
// the base needs no wrench (the feet carry the robot).
TEST_F(FloatingBase, FeetCarryingTheWeightLeaveNoBaseWrench) {
  const model::RobotDescription& description = model::default_robot_description();
  const VectorXd q = description.nominal_q(model);
  const VectorXd zero = VectorXd::Zero(model.nv);
  model::Data d(model);
  const Vec3 com = center_of_mass(model, d, q);
  const double half_weight = 0.5 * model.total_mass() * 9.81;
  ExternalForces fext(model.nbodies, Force::Zero());
  // Each sole pushes up with half the weight at (com.x, com.y ± 0.095, 0): the two forces sum to the weight
  // and their moments to com × weight, so together they cancel gravity exactly.
  for (const char* link : {"RLEG_LINK5", "LLEG_LINK5"}) {
    const int b = model.body_index(link);
    const double y = (link[0] == 'R' ? -0.095 : 0.095) + com.y();
    const Force world(Vec3(0, 0, half_weight), Vec3(com.x(), y, 0.0).cross(Vec3(0, 0, half_weight)));
    fext[b] = d.oMi[b].act_inv(world);
  }
  const VectorXd tau = rnea(model, data, q, zero, zero, fext);
  // 1e-9: sums of ~300 N terms; no approximation.
  EXPECT_LE(tau.head<6>().norm(), 1e-9);
}

}  // namespace
}  // namespace mimic::dynamics
