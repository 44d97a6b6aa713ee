// Every term of src/mimic/terms on two robots, for the one derivative harness (all_terms.cpp) and the
// TermSum / threading tests (as Crocoddyl's unittest/factory): HRP-2 (free-flyer, revolute joints about
// the coordinate axes) and a small branched robot with prismatic joints, generic axes, rotated placements
// and full inertias (the model of tests/dynamics/derivatives_generic_joints.cpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/terms/frame_imitation.hpp"
#include "mimic/terms/joint_imitation.hpp"
#include "mimic/terms/sample_data.hpp"
#include "mimic/terms/self_collision.hpp"
#include "mimic/terms/sole_clearance.hpp"
#include "mimic/terms/support_foot.hpp"
#include "mimic/terms/swing_sole_orientation.hpp"
#include "mimic/terms/torque_limits.hpp"
#include "mimic/terms/torque_residual.hpp"
#include "support/generic_joint_robot.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::test {

inline const model::Model& hrp2_model() {
  static const model::Model model = model::load_urdf(hrp2_urdf().string(), model::LoadOptions::hrp2());
  return model;
}

inline const model::Model& generic_model() {
  static const model::Model model = [] {
    const std::filesystem::path path = unique_temp_path("terms_generic", ".urdf");
    std::ofstream(path) << kGenericUrdf;
    return model::load_urdf(path.string(), {model::RootType::kFreeFlyer, {}});
  }();
  return model;
}

// HRP-2's collision model (models/hrp2.urdf <collision>, config/robots/hrp2.yaml collision:). The generic
// robot has none: a collision model needs a robot description (sole rectangles, sole frames), and the
// distances' prismatic and generic-axis columns come from the same world axes as the other terms'.
inline std::shared_ptr<const geometry::CollisionModel> hrp2_collision_model() {
  static const auto cmodel = std::make_shared<const geometry::CollisionModel>(geometry::build_collision_model(
      hrp2_model(), model::load_robot(model::default_robot_description_path()).description));
  return cmodel;
}

// The two "feet" of a robot: HRP-2's sole frames; on the generic robot the tip (a serial chain of three
// generic joints) and the slider's body (one prismatic joint) stand in for them.
struct Feet {
  int right_frame = -1, left_frame = -1;
  terms::GroundReaction ground;
};

inline Feet feet_of(const model::Model& model) {
  Feet feet;
  const bool hrp2 = &model == &hrp2_model();
  feet.right_frame = model.frame_index(hrp2 ? "r_sole" : "tip");
  feet.left_frame = model.frame_index(hrp2 ? "l_sole" : "slider");
  feet.ground =
      terms::GroundReaction(model, model.frames[feet.right_frame].body, model.frames[feet.left_frame].body);
  return feet;
}

inline constexpr int kSamples = 3;  // reference tables have three samples; the cases read sample 1

// One term on one robot, with what its SampleData needs.
struct TermCase {
  std::string name;
  const model::Model* model = nullptr;
  std::shared_ptr<const terms::Term> term;
  terms::GroundReaction ground;  // available() when the term reads the ground reaction
  terms::ContactState contact;
};

// gtest prints a case by its name, not its bytes.
inline void PrintTo(const TermCase& c, std::ostream* os) { *os << c.name; }

inline std::vector<int> all_joints(const model::Model& model) {
  std::vector<int> joints(static_cast<std::size_t>(model.nj));
  for (int j = 0; j < model.nj; ++j) joints[static_cast<std::size_t>(j)] = j;
  return joints;
}

inline Eigen::MatrixXd random_table(int rows, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  Eigen::MatrixXd table(rows, kSamples);
  for (double& x : table.reshaped()) x = u(rng);
  return table;
}

inline std::vector<spatial::SE3> random_placements(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<spatial::SE3> placements;
  for (int n = 0; n < kSamples; ++n) {
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng));
    placements.emplace_back(Eigen::AngleAxisd(axis.norm(), axis.normalized()).toRotationMatrix(),
                            spatial::Vec3(u(rng), u(rng), u(rng)));
  }
  return placements;
}

// Every term of the module on `model` (the velocity rows, written on control points, have their own
// tests in tests/motion and tests/smoothing).
inline std::vector<TermCase> term_cases(const model::Model& model, const std::string& robot) {
  using namespace terms;
  std::mt19937 rng(11);
  const Feet feet = feet_of(model);
  const std::vector<int> joints = all_joints(model);
  const std::vector<int> some_joints = {0, model.nj - 1};
  const Eigen::VectorXd limits = Eigen::VectorXd::LinSpaced(model.nj, 50.0, 150.0);
  std::vector<int> frames = {feet.right_frame};
  if (&model == &hrp2_model())
    frames = {model.frame_index("gaze"), model.frame_index("r_gripper"), model.frame_index("l_gripper")};

  ContactState double_support;
  double_support.phase = model::ContactPhase::kDoubleSupport;
  double_support.right_sole_centre = spatial::Vec3(0.05, -0.1, 0.0);
  double_support.left_sole_centre = spatial::Vec3(-0.03, 0.12, 0.01);
  ContactState right_support = double_support;
  right_support.phase = model::ContactPhase::kRightSupport;

  std::vector<TermCase> cases;
  const auto add = [&](const std::string& name, std::shared_ptr<const Term> term,
                       const GroundReaction& ground = {}, ContactState contact = {}) {
    cases.push_back({robot + "_" + name, &model, std::move(term), ground, contact});
  };
  add("JointImitation", std::make_shared<JointImitation>(model, some_joints, random_table(2, rng)));
  add("FrameImitation", std::make_shared<FrameImitation>(
                            model, frames, random_table(3 * static_cast<int>(frames.size()), rng)));
  add("TorqueResidual", std::make_shared<TorqueResidual>(model, joints));
  add("TorqueLimits", std::make_shared<TorqueLimits>(model, joints, limits));
  add("TorqueResidualGroundDouble", std::make_shared<TorqueResidual>(model, joints, &feet.ground),
      feet.ground, double_support);
  add("TorqueResidualGroundRight", std::make_shared<TorqueResidual>(model, joints, &feet.ground), feet.ground,
      right_support);
  add("TorqueLimitsGroundDouble", std::make_shared<TorqueLimits>(model, joints, limits, &feet.ground),
      feet.ground, double_support);
  add("SupportFootResidual", std::make_shared<SupportFoot>(model, feet.right_frame, random_placements(rng),
                                                           RowKind::kResidual, 1e5, 6e4));
  add("SupportFootEquality", std::make_shared<SupportFoot>(model, feet.left_frame, random_placements(rng),
                                                           RowKind::kEquality, 1e3, 1e3));
  std::vector<spatial::Mat3> planned_orientations;
  for (const spatial::SE3& placement : random_placements(rng)) planned_orientations.push_back(placement.R);
  add("SwingSoleOrientation",
      std::make_shared<SwingSoleOrientation>(model, feet.left_frame, planned_orientations, 0.035));
  if (&model == &hrp2_model()) {
    const auto cmodel = hrp2_collision_model();
    std::vector<int> pairs(cmodel->pairs.size()), corners(cmodel->corners.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) pairs[k] = static_cast<int>(k);
    for (std::size_t k = 0; k < corners.size(); ++k) corners[k] = static_cast<int>(k);
    add("SelfCollision", std::make_shared<SelfCollision>(model, cmodel, pairs, 0.01));
    add("SoleClearance", std::make_shared<SoleClearance>(model, cmodel, corners));
  }
  return cases;
}

inline std::vector<TermCase> all_term_cases() {
  std::vector<TermCase> cases = term_cases(hrp2_model(), "Hrp2");
  for (TermCase& c : term_cases(generic_model(), "Generic")) cases.push_back(std::move(c));
  return cases;
}

// A random state (configuration within the limits, rates in [-2, 2]) at sample 1.
inline void set_random_state(terms::SampleData& sample, std::mt19937& rng) {
  const model::Model& model = sample.model();
  sample.index = 1;
  sample.q = model::random_configuration(model, rng);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (double& x : sample.v) x = u(rng);
  for (double& x : sample.a) x = u(rng);
}

}  // namespace mimic::test
