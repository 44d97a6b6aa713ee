// The ZMP written with a kinematic reference: the CoM projection when still, the cart-table shift when
// the whole robot accelerates, expressed in the waist frame.
#include "mimic/retarget/reference_zmp.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mimic/dynamics/com.hpp"
#include "mimic/model/robot_description.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

struct ReferenceZmp : ::testing::Test {
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  Eigen::VectorXd rest = model::default_robot_description().nominal_q(model);

  ReferenceMotion still(int samples) const {
    ReferenceMotion r;
    r.rate = 200.0;
    r.joints = SampleMatrix(samples, model.nj);
    r.joints.rowwise() = rest.tail(model.nj).transpose();
    r.waist = SampleMatrix::Zero(samples, 6);
    r.waist.col(2).setConstant(rest[2]);
    r.end_effectors = SampleMatrix::Zero(samples, 9);
    return r;
  }
};

TEST_F(ReferenceZmp, StandingStillIsTheCentreOfMassProjection) {
  const ReferenceMotion r = still(5);
  int fallback = -1;
  const SampleMatrix zmp = reference_zmp(model, r, &fallback);
  EXPECT_EQ(fallback, 0);
  model::Data data(model);
  const Eigen::Vector3d com = dynamics::center_of_mass(model, data, rest);
  for (int m = 0; m < 5; ++m) {
    // Zero acceleration: the RNEA ZMP is the gravity moment over the weight, m g x / m g, a few ulp of
    // centimetre values (measured 0). 1e-12 m; a dynamic term or a frame error is millimetres at least.
    EXPECT_NEAR(zmp(m, 0), com.x(), 1e-12);
    EXPECT_NEAR(zmp(m, 1), com.y(), 1e-12);
    EXPECT_NEAR(zmp(m, 2), 0.0, 1e-12);  // on the ground plane, in the world
  }
}

TEST_F(ReferenceZmp, TranslatingRobotShiftsTheZmpAsTheCartTable) {
  // The rigid robot sways forward and back: with no rotation the multibody ZMP is exactly the cart-table
  // one, x_zmp = x_com - z_com * a_x / g (world frame).
  ReferenceMotion r = still(200);
  for (int m = 0; m < 200; ++m) r.waist(m, 0) = 0.05 * std::sin(2.0 * M_PI * m / 200.0 * 2.0);
  const SampleMatrix zmp = reference_zmp(model, r);
  model::Data data(model);
  const Eigen::Vector3d com0 = dynamics::center_of_mass(model, data, rest);  // waist at x = 0
  const double dt = 1.0 / r.rate, g = -model.gravity.z();
  for (int m = 1; m + 1 < 200; ++m) {
    const double ax = (r.waist(m + 1, 0) - 2.0 * r.waist(m, 0) + r.waist(m - 1, 0)) / (dt * dt);
    const double expected_world = r.waist(m, 0) + com0.x() - com0.z() * ax / g;
    // The two second differences of waist positions (~5 cm) differ by an ulp, divided by dt^2 = 2.5e-5 and
    // scaled by z_com / g: ~3e-14 m (measured 1.1e-14 on x, 3e-19 on y). The cart-table term itself reaches
    // ~0.5 m.
    EXPECT_NEAR(zmp(m, 0), expected_world, 1e-12) << m;
    EXPECT_NEAR(zmp(m, 1), com0.y(), 1e-12) << m;
  }
}

TEST_F(ReferenceZmp, FreeFallFallsBackOnTheCentreOfMass) {
  ReferenceMotion r = still(3);
  r.waist(1, 2) -= 0.01;  // drops 1 cm within 5 ms and comes back: |a_z| >> g
  int fallback = 0;
  const SampleMatrix zmp = reference_zmp(model, r, &fallback);
  EXPECT_EQ(fallback, 2);  // samples 0 and 2 accelerate downwards at 400 m/s^2; sample 1 upwards
  EXPECT_TRUE(zmp.allFinite());
}

}  // namespace
}  // namespace mimic::retarget
