// A payload carried by the robot: the model helper, and a walking pattern whose CoM accounts for it.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/walking/walking_pattern.hpp"
#include "support/shared_data.hpp"

namespace mimic::walking {
namespace {

struct Hrp2 {
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::RobotDescription description = model::default_robot_description();
};

const Hrp2& robot() {
  static const Hrp2 r;
  return r;
}

// Seed 001's bar as config/jobs/walk_bar_smooth.yaml states it: 0.7 kg, COM 0.65 m along the gripper's x.
model::Payload bar() {
  return {"r_gripper", spatial::Inertia(0.7, spatial::Vec3(0.65, 0.0, 0.0),
                                        spatial::Vec3(7.875e-5, 0.23337, 0.23337).asDiagonal())};
}

TEST(WalkingPayload, ModelWithPayloadHasTheCombinedMassAndCentreOfMass) {
  const model::Model& bare = robot().model;
  const model::Payload payload = bar();
  const model::Model loaded = model::with_payload(bare, payload);
  // Masses and CoMs: sums over 32 bodies in another order, round-off of ~60 kg and ~1 m values (1e-12).
  EXPECT_NEAR(loaded.total_mass(), bare.total_mass() + 0.7, 1e-12);
  EXPECT_EQ(bare.total_mass(),
            model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2()).total_mass())
      << "the source model must stay as it was";

  std::mt19937 rng(8);
  model::Data bare_data(bare), loaded_data(loaded);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(bare, rng);
    const spatial::Vec3 c_bare = dynamics::center_of_mass(bare, bare_data, q);
    const spatial::Vec3 c_loaded = dynamics::center_of_mass(loaded, loaded_data, q);
    // The bar's COM in the world, from the gripper frame's placement (not from the helper).
    dynamics::update_frame_placements(bare, bare_data);
    const spatial::Vec3 c_bar =
        bare_data.oMf[static_cast<std::size_t>(bare.frame_index("r_gripper"))].act(payload.inertia.com);
    const spatial::Vec3 expected = (bare.total_mass() * c_bare + 0.7 * c_bar) / (bare.total_mass() + 0.7);
    EXPECT_LT((c_loaded - expected).norm(), 1e-12);
    EXPECT_LT((model::payload_com_in_world(loaded, loaded_data, payload) - c_bar).norm(), 1e-12);
  }

  // A link name works as well as a frame name (every URDF link is a frame).
  model::Payload on_link = bar();
  on_link.attached_to = "RARM_LINK6";
  EXPECT_NEAR(model::with_payload(bare, on_link).total_mass(), loaded.total_mass(), 1e-12);
  EXPECT_THROW(model::with_payload(bare, {"no_such_frame", spatial::Inertia(1.0, spatial::Vec3::Zero(),
                                                                            spatial::Mat3::Identity())}),
               ModelError);
  EXPECT_THROW(model::with_payload(
                   bare, {"r_gripper", spatial::Inertia(-1.0, spatial::Vec3::Zero(), spatial::Mat3::Zero())}),
               std::invalid_argument);
}

// Walking with the bar: the pattern made with the loaded model keeps the loaded CoM on the cart's; the same
// walk planned while ignoring the bar puts the real (loaded) multibody ZMP off by the bar's moment.
TEST(WalkingPayload, PatternCentreOfMassIncludesThePayload) {
  const Hrp2& r = robot();
  const model::Model loaded = model::with_payload(r.model, bar());
  const FootstepPlan plan = parse_footsteps(R"(initial_stance:
  right: { position: [0.00949, -0.095] }
  left: { position: [0.00949, 0.095] }
timing: { single_support: 0.8, double_support: 0.2 }
initial_hold: 1.5
final_hold: 1.0
steps:
  - { foot: right, displacement: [0.15, 0.0] }
  - { foot: left, displacement: [0.30, 0.0] }
  - { foot: right, displacement: [0.15, 0.0] }
)",
                                            "bar_walk.yaml");
  const WalkSchedule schedule(plan, r.description.right_sole, r.description.left_sole);
  const UpperBodyTrajectory arms =
      UpperBodyTrajectory::fixed(r.description.nominal_q(r.model).tail(r.model.nj));
  const WalkingPattern with_bar = generate_walking_pattern(loaded, r.description, schedule, arms);
  const WalkingPattern without_bar = generate_walking_pattern(r.model, r.description, schedule, arms);

  model::Data data(loaded);
  double loaded_error = 0.0, waist_shift = 0.0;
  for (Eigen::Index k = 0; k < with_bar.size(); ++k) {
    const auto& c = dynamics::center_of_mass(loaded, data, with_bar.motion.q.col(k));
    loaded_error = std::max(loaded_error, (c.head<2>() - with_bar.com.row(k).head<2>().transpose()).norm());
    waist_shift = std::max(
        waist_shift, (with_bar.motion.q.col(k).head<2>() - without_bar.motion.q.col(k).head<2>()).norm());
  }
  EXPECT_LT(loaded_error, 1e-8);  // the waist correction stops at 1e-9 m: measured 1.0e-9
  // The bar's moment about the CoM is ~0.7 kg x 0.7 m: the CoM would move by ~8 mm, so the waist moves the
  // other way by about that much (a little more, since the legs follow it only in part).
  std::printf("waist shift due to the bar: %.4f m\n", waist_shift);  // measured 10.8 mm
  EXPECT_GT(waist_shift, 0.005);
  EXPECT_LT(waist_shift, 0.02);

  // The real robot carries the bar: its ZMP for each plan, from the loaded dynamics.
  const auto deviation = [&](const WalkingPattern& p) {
    const Eigen::MatrixXd zmp = multibody_zmp(loaded, p.motion);
    return (zmp.leftCols(2) - p.zmp_reference.leftCols(2)).rowwise().norm().maxCoeff();
  };
  const double planned_with = deviation(with_bar), planned_without = deviation(without_bar);
  std::printf("ZMP deviation of the loaded robot: planned with the bar %.4f m, without %.4f m\n",
              planned_with, planned_without);
  EXPECT_GT(planned_without, planned_with + 0.004);  // measured 11.0 mm against 2.4 mm
}

}  // namespace
}  // namespace mimic::walking
