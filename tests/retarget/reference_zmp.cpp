// The ZMP written with a kinematic reference: the CoM projection when still, the cart-table shift when
// the whole robot accelerates, expressed in the waist frame.
#include "mimic/retarget/reference_zmp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mimic/dynamics/com.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/robot_description.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

struct ReferenceZmp : ::testing::Test {
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  Eigen::VectorXd rest = model::default_robot_description().nominal_q(model);

  // Configurations (nq x N) standing still at the nominal joints, the upright waist at x = y = 0.
  Eigen::MatrixXd still(int samples) const {
    const spatial::SE3 waist(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.0, 0.0, rest[2]));
    return model::configuration(model, waist, rest.tail(model.nj)).replicate(1, samples);
  }
  // The reference of `q` at 200 Hz (v and a by model::differentiate).
  ReferenceMotion reference(const Eigen::MatrixXd& q) const {
    return make_reference(model, 200.0, q, Eigen::MatrixXd::Zero(9, q.cols()));
  }
  // Moves the waist of sample k by `shift` (world).
  void shift_waist(Eigen::MatrixXd& q, int k, const Eigen::Vector3d& shift) const {
    spatial::SE3 waist = model::base_pose(model, q.col(k));
    waist.p += shift;
    model::set_base_pose(model, q.col(k), waist);
  }
};

TEST_F(ReferenceZmp, StandingStillIsTheCentreOfMassProjection) {
  const ReferenceMotion r = reference(still(5));
  int fallback = -1;
  const Eigen::MatrixXd zmp = reference_zmp(model, r, &fallback);
  EXPECT_EQ(fallback, 0);
  model::Data data(model);
  const Eigen::Vector3d com = dynamics::center_of_mass(model, data, still(1).col(0));
  for (int m = 0; m < 5; ++m) {
    // Zero acceleration: the RNEA ZMP is the gravity moment over the weight, m g x / m g, a few ulp of
    // centimetre values (measured 0). 1e-12 m; a dynamic term or a frame error is millimetres at least.
    EXPECT_NEAR(zmp(0, m), com.x(), 1e-12);
    EXPECT_NEAR(zmp(1, m), com.y(), 1e-12);
    EXPECT_NEAR(zmp(2, m), 0.0, 1e-12);  // on the ground plane, in the world
  }
}

TEST_F(ReferenceZmp, TranslatingRobotShiftsTheZmpAsTheCartTable) {
  // The rigid robot sways forward and back: with no rotation the multibody ZMP is exactly the cart-table
  // one, x_zmp = x_com - z_com * a_x / g (world frame).
  Eigen::MatrixXd q = still(200);
  std::vector<double> x(200);
  for (int m = 0; m < 200; ++m) {
    x[m] = 0.05 * std::sin(2.0 * M_PI * m / 200.0 * 2.0);
    shift_waist(q, m, Eigen::Vector3d(x[m], 0.0, 0.0));
  }
  const ReferenceMotion r = reference(q);
  const Eigen::MatrixXd zmp = reference_zmp(model, r);
  model::Data data(model);
  const Eigen::Vector3d com0 = dynamics::center_of_mass(model, data, still(1).col(0));  // waist at x = 0
  const double dt = 1.0 / r.rate, g = -model.gravity.z();
  for (int m = 1; m + 1 < 200; ++m) {
    const double ax = (x[m + 1] - 2.0 * x[m] + x[m - 1]) / (dt * dt);
    const double expected_world = x[m] + com0.x() - com0.z() * ax / g;
    // The two second differences of waist positions (~5 cm) differ by an ulp, divided by dt^2 = 2.5e-5 and
    // scaled by z_com / g: ~3e-14 m (measured 1.1e-14 on x, 3e-19 on y). The cart-table term itself reaches
    // ~0.5 m.
    EXPECT_NEAR(zmp(0, m), expected_world, 1e-12) << m;
    EXPECT_NEAR(zmp(1, m), com0.y(), 1e-12) << m;
  }
}

TEST_F(ReferenceZmp, FreeFallFallsBackOnTheCentreOfMass) {
  Eigen::MatrixXd q = still(5);
  // Rises 1 cm within 5 ms and comes back: the waist's acceleration (model::differentiate, three-point) is
  // -800 m/s^2 at sample 2, +400 m/s^2 at samples 1 and 3 and, copied from them, at the ends 0 and 4.
  shift_waist(q, 2, Eigen::Vector3d(0.0, 0.0, 0.01));
  int fallback = 0;
  const Eigen::MatrixXd zmp = reference_zmp(model, reference(q), &fallback);
  EXPECT_EQ(fallback, 1);  // only sample 2 falls faster than gravity
  EXPECT_TRUE(zmp.allFinite());
}

}  // namespace
}  // namespace mimic::retarget
