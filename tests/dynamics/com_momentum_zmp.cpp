// Centre of mass, its Jacobian, momentum and ZMP on HRP-2 (free-flyer).
#include <gtest/gtest.h>

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
using spatial::Vec3;

class Com : public ::testing::Test {
 protected:
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::Data data{model};
  model::RobotDescription description = model::default_robot_description();
  std::mt19937 rng{7};
};

// CoM = mass-weighted mean of the body COMs placed by FK (written out here, independently of com.cpp).
TEST_F(Com, IsTheWeightedMeanOfBodyComs) {
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    forward_kinematics(model, data, q);
    Vec3 sum = Vec3::Zero();
    double m = 0;
    for (int b = 0; b < model.nbodies; ++b) {
      sum += model.inertias[b].mass * data.oMi[b].act(model.inertias[b].com);
      m += model.inertias[b].mass;
    }
    // The same 31-term sums in another order: round-off (1e-14 relative, 1e-12 kg). The leg's subtree mass
    // is a sum of URDF masses whose total [S5] prints with 5 decimals and the URDF reproduces exactly: 1e-9.
    EXPECT_TRUE(center_of_mass(model, data, q).isApprox(sum / m, 1e-14));
    EXPECT_NEAR(data.mass, m, 1e-12);
    EXPECT_NEAR(data.subtree_mass[model.body_index("RLEG_LINK0")], 8.15747, 1e-9);  // one leg [S5]
  }
}

// vcom = Jcom v (exact, 1e-12) and both equal the central difference of com along q ⊕ t v (eps = 1e-6:
// truncation 1e-12, round-off 1e-10 -> 1e-8); acom against the central difference of vcom along
// q ⊕ (t v + t²/2 a) with velocity v + t a (eps = 1e-4: truncation 1e-8 -> 1e-6); h.linear = m vcom.
TEST_F(Com, VelocityAccelerationAndJacobian) {
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = VectorXd::Random(model.nv), a = VectorXd::Random(model.nv);
    model::Data d(model);
    center_of_mass(model, data, q, v, a);
    const Vec3 vcom = data.vcom, acom = data.acom;
    const Eigen::Matrix3Xd J = com_jacobian(model, d, q);
    EXPECT_TRUE((J * v).isApprox(vcom, 1e-12));
    double eps = 1e-6;
    const Vec3 cp = center_of_mass(model, d, model::integrate(model, q, eps * v));
    const Vec3 cm = center_of_mass(model, d, model::integrate(model, q, -eps * v));
    EXPECT_LE((vcom - (cp - cm) / (2 * eps)).norm(), 1e-8);
    eps = 1e-4;
    center_of_mass(model, d, model::integrate(model, q, eps * v + 0.5 * eps * eps * a), v + eps * a);
    const Vec3 vp = d.vcom;
    center_of_mass(model, d, model::integrate(model, q, -eps * v + 0.5 * eps * eps * a), v - eps * a);
    const Vec3 vm = d.vcom;
    EXPECT_LE((acom - (vp - vm) / (2 * eps)).norm(), 1e-6);
    // m vcom and m acom are the same sums as the body momenta (round-off: 1e-12; the rate sums products
    // of velocities, 1e-10).
    const Force h = momentum(model, d, q, v);
    EXPECT_TRUE(h.f.isApprox(data.mass * vcom, 1e-12));
    // dh.linear = m acom (Newton for the whole robot)
    const Force dh = momentum_rate(model, d, q, v, a);
    EXPECT_TRUE(dh.f.isApprox(data.mass * acom, 1e-10));
  }
}

// The angular momentum about the world origin of a robot translating rigidly is com × m vcom; of a robot
// spinning about the vertical through the origin at rate w it is I_zz w about z.
TEST_F(Com, MomentumOfRigidMotions) {
  const VectorXd q = description.nominal_q(model);
  VectorXd v = VectorXd::Zero(model.nv);
  v.head<3>() = Vec3(0.3, -0.2, 0.1);
  const Force h = momentum(model, data, q, v);
  // Exact identities for a rigid translation, round-off only (1e-14 .. 1e-12).
  EXPECT_TRUE(h.f.isApprox(data.mass * Vec3(0.3, -0.2, 0.1), 1e-14));
  EXPECT_TRUE(h.tau.isApprox(data.com.cross(h.f), 1e-13));
  EXPECT_TRUE(momentum_rate(model, data, q, v, VectorXd::Zero(model.nv)).to_vector().isZero(1e-12));
}

// Static pose: the ZMP is the vertical projection of the CoM, at any plane height (the contact wrench is the
// pure weight, which has no moment about the CoM line). Exact up to round-off: 1e-12 m.
TEST_F(Com, ZmpOfStaticPoseIsComProjection) {
  const VectorXd zero = VectorXd::Zero(model.nv);
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = trial == 0 ? description.nominal_q(model) : model::random_configuration(model, rng);
    for (double height : {0.0, -0.3, 0.648702}) {
      const auto p = zmp(model, data, q, zero, zero, height);
      ASSERT_TRUE(p.has_value());
      EXPECT_NEAR(p->x(), data.com.x(), 1e-12);
      EXPECT_NEAR(p->y(), data.com.y(), 1e-12);
      EXPECT_EQ(p->z(), height);
    }
  }
}

// Moving robot: the ZMP from the momentum rate equals the ZMP from RNEA's base wrench (two independent
// paths to the contact wrench, see rnea_properties.cpp), and the moment of the contact wrench about the
// ZMP has no horizontal component (definition). 1e-9 m: both exact, divided by f_z ~ 500 N.
TEST_F(Com, ZmpOfMotionFromRneaAndDefinition) {
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd q = model::random_configuration(model, rng);
    const VectorXd v = VectorXd::Random(model.nv), a = VectorXd::Random(model.nv);
    const auto p = zmp(model, data, q, v, a, 0.02);
    const Force w = contact_wrench(model, data, q, v, a);
    const VectorXd& tau = rnea(model, data, q, v, a);
    const Force base = model::base_placement(model, q).act(Force::from_vector(tau.head<6>()));
    const auto p_rnea = zmp_from_wrench(base, 0.02);
    ASSERT_TRUE(p && p_rnea);
    EXPECT_LE((*p - *p_rnea).norm(), 1e-9);
    const Vec3 moment_about_zmp = w.tau - p->cross(w.f);
    EXPECT_LE(moment_about_zmp.head<2>().norm(), 1e-9);
  }
}

TEST(Zmp, NoSupportGivesNoZmp) {
  EXPECT_FALSE(zmp_from_wrench(Force(Vec3(0, 0, -1), Vec3::Zero())).has_value());  // pulling
  EXPECT_FALSE(zmp_from_wrench(Force(Vec3(1, 0, 0), Vec3::Zero())).has_value());   // no normal force
  const auto p = zmp_from_wrench(Force(Vec3(0, 0, 100), Vec3(10, -20, 0)));        // tau = p × f
  ASSERT_TRUE(p.has_value());
  EXPECT_DOUBLE_EQ(p->x(), 0.2);
  EXPECT_DOUBLE_EQ(p->y(), 0.1);
}

}  // namespace
}  // namespace mimic::dynamics
