// The upper-body IK on chains HRP-2 does not have, built here: a 3-joint torso, no neck or a 3-joint one,
// 7-joint arms with offset wrist joints (the JVRC-1 / G1 shape). It reaches reachable targets, degrades
// gracefully (damped) on unreachable ones, keeps a redundant arm near its posture (regularisation toward the
// warm start, not a null-space projection), and its analytic gradient matches finite differences.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/retarget/upper_body_ik.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::retarget {
namespace {

struct Joint {
  std::string name, parent, xyz, axis;
  double lower, upper;
};

std::string link(const std::string& name) {
  return "<link name=\"" + name +
         "\"><inertial><origin xyz=\"0 0 0\" rpy=\"0 0 0\"/><mass value=\"1\"/><inertia ixx=\"0.01\" "
         "ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n";
}

// waist -> two legs of 6; waist -> torso yaw, pitch, roll -> chest; chest -> two arms of 7 (shoulder pitch,
// roll, yaw at one point; elbow pitch 0.28 m below; elbow yaw 0.24 m below that; wrist roll and yaw 0.02 m
// apart) -> gripper frame 0.1 m below; chest -> gaze frame (no neck), or with `neck` chest -> neck yaw,
// roll, pitch at one point 0.45 m above the torso joints -> gaze frame.
std::string humanoid_urdf(bool neck) {
  std::vector<Joint> joints;
  for (const char* side : {"r", "l"}) {
    const double y = std::string(side) == "r" ? -1.0 : 1.0;
    const std::string p = side;
    const auto at = [](double x, double yy, double z) {
      std::ostringstream s;
      s << x << " " << yy << " " << z;
      return s.str();
    };
    joints.push_back({p + "_hip_p", "waist", at(0, 0.09 * y, -0.05), "0 1 0", -2.0, 0.8});
    joints.push_back({p + "_hip_r", p + "_hip_p", "0 0 0", "1 0 0", -0.8, 0.8});
    joints.push_back({p + "_hip_y", p + "_hip_r", "0 0 0", "0 0 1", -0.8, 0.8});
    joints.push_back({p + "_knee", p + "_hip_y", "0 0 -0.38", "0 1 0", 0.0, 2.6});
    joints.push_back({p + "_ankle_r", p + "_knee", "0 0 -0.36", "1 0 0", -0.6, 0.6});
    joints.push_back({p + "_ankle_p", p + "_ankle_r", "0 0 0", "0 1 0", -1.2, 0.9});
    joints.push_back({p + "_shoulder_p", "torso_r", at(0, 0.2 * y, 0.3), "0 1 0", -3.0, 1.0});
    joints.push_back(
        {p + "_shoulder_r", p + "_shoulder_p", "0 0 0", "1 0 0", y > 0 ? -0.2 : -2.8, y > 0 ? 2.8 : 0.2});
    joints.push_back({p + "_shoulder_y", p + "_shoulder_r", "0 0 0", "0 0 1", -2.0, 2.0});
    joints.push_back({p + "_elbow_p", p + "_shoulder_y", "0.004 0 -0.28", "0 1 0", -2.5, 0.0});
    joints.push_back({p + "_elbow_y", p + "_elbow_p", "-0.004 0 -0.24", "0 0 1", -2.0, 2.0});
    joints.push_back({p + "_wrist_r", p + "_elbow_y", "0 0 -0.02", "1 0 0", -1.2, 1.2});
    joints.push_back({p + "_wrist_y", p + "_wrist_r", "0 0 0", "0 0 1", -1.5, 1.5});
  }
  joints.push_back({"torso_y", "waist", "0 0 0.15", "0 0 1", -1.0, 1.0});
  joints.push_back({"torso_p", "torso_y", "0 0 0", "0 1 0", -0.5, 1.2});
  joints.push_back({"torso_r", "torso_p", "0 0 0", "1 0 0", -0.5, 0.5});
  if (neck) {
    joints.push_back({"neck_y", "torso_r", "0 0 0.45", "0 0 1", -1.2, 1.2});
    joints.push_back({"neck_r", "neck_y", "0 0 0", "1 0 0", -0.6, 0.6});
    joints.push_back({"neck_p", "neck_r", "0 0 0", "0 1 0", -0.6, 0.9});
  }
  std::ostringstream s;
  s << "<?xml version=\"1.0\"?>\n<robot name=\"chains\">\n" << link("waist");
  for (const Joint& j : joints) {
    s << link(j.name) << "<joint name=\"" << j.name << "\" type=\"revolute\"><parent link=\"" << j.parent
      << "\"/><child link=\"" << j.name << "\"/><origin xyz=\"" << j.xyz << "\" rpy=\"0 0 0\"/><axis xyz=\""
      << j.axis << "\"/><limit lower=\"" << j.lower << "\" upper=\"" << j.upper
      << "\" velocity=\"6\" effort=\"100\"/></joint>\n";
  }
  const auto fixed = [&](const std::string& name, const std::string& parent, const std::string& xyz) {
    s << "<link name=\"" << name << "\"/><joint name=\"" << name << "_joint\" type=\"fixed\"><parent link=\""
      << parent << "\"/><child link=\"" << name << "\"/><origin xyz=\"" << xyz
      << "\" rpy=\"0 0 0\"/></joint>\n";
  };
  fixed("r_gripper", "r_wrist_y", "0 0 -0.1");
  fixed("l_gripper", "l_wrist_y", "0 0 -0.1");
  fixed("r_sole", "r_ankle_p", "0 0 -0.1");
  fixed("l_sole", "l_ankle_p", "0 0 -0.1");
  if (neck)
    fixed("gaze", "neck_p", "0.08 0 0.1");
  else
    fixed("gaze", "torso_r", "0.08 0 0.5");
  s << "</robot>\n";
  return s.str();
}

struct Chains {
  model::Model model;
  model::RobotDescription description;
};

Chains make_chains(bool neck) {
  const auto path = test::unique_temp_path("upper_body_chains", ".urdf");
  std::ofstream(path) << humanoid_urdf(neck);
  Chains out{model::load_urdf(path.string()), {}};
  std::filesystem::remove(path);
  model::RobotDescription& d = out.description;
  d.source_path = "upper_body_ik_chains.cpp";
  for (const char* side : {"r", "l"}) {
    const std::string p = side;
    auto& leg = p == "r" ? d.groups.right_leg : d.groups.left_leg;
    leg = {p + "_hip_p", p + "_hip_r", p + "_hip_y", p + "_knee", p + "_ankle_r", p + "_ankle_p"};
    model::ArmGroup& arm = p == "r" ? d.groups.right_arm : d.groups.left_arm;
    arm.joints = {p + "_shoulder_p", p + "_shoulder_r", p + "_shoulder_y", p + "_elbow_p",
                  p + "_elbow_y",    p + "_wrist_r",    p + "_wrist_y"};
    arm.end_frame = p + "_gripper";
  }
  d.groups.torso = {"torso_y", "torso_p", "torso_r"};
  if (neck) d.groups.neck = {"neck_y", "neck_r", "neck_p"};
  d.frames = {"r_sole", "l_sole", "r_gripper", "l_gripper", "gaze"};
  d.retarget_groups = {"torso", "neck", "right_arm", "left_arm"};
  return out;
}

const Chains& chains() {
  static const Chains c = make_chains(false);
  return c;
}

// The joints and frames the targets are read from: the torso's last joint, and per arm its shoulder (first
// joint), elbow, wrist (last joint) and gripper frame; right, then left.
struct BodyNames {
  std::string chest;
  std::string neck;  // the first neck joint; none: the torso's top is the middle of the shoulders
  std::array<std::string, 2> shoulder, elbow, wrist, gripper;
};

const BodyNames kChainsNames{"torso_r",
                             "",
                             {"r_shoulder_p", "l_shoulder_p"},
                             {"r_elbow_p", "l_elbow_p"},
                             {"r_wrist_y", "l_wrist_y"},
                             {"r_gripper", "l_gripper"}};

// The targets a posture `joints` (size nj) shows: what a human in exactly that posture would give.
UpperBodyTargets targets_of(const model::Model& m, const BodyNames& names, const Eigen::VectorXd& joints) {
  Eigen::VectorXd q = model::neutral(m);
  q.tail(m.nj) = joints;
  model::Data data(m);
  dynamics::forward_kinematics(m, data, q);
  const auto origin = [&](const std::string& joint) -> Eigen::Vector3d {
    return data.oMi[static_cast<std::size_t>(model::Model::body_of_joint(m.joint_index(joint)))].p;
  };
  const auto frame = [&](const std::string& name) -> Eigen::Vector3d {
    return dynamics::update_frame_placement(m, data, m.frame_index(name)).p;
  };
  UpperBodyTargets t;
  t.torso_from_chest = true;
  const Eigen::Vector3d top =
      names.neck.empty() ? Eigen::Vector3d(0.5 * (origin(names.shoulder[0]) + origin(names.shoulder[1])))
                         : origin(names.neck);
  t.torso_up = (top - origin(names.chest)).normalized();
  t.shoulder_axis = (origin(names.shoulder[1]) - origin(names.shoulder[0])).normalized();
  t.head_up = t.torso_up;
  for (int s : {kRight, kLeft}) {
    const auto k = static_cast<std::size_t>(s);
    ArmTargets& a = t.arms[k];
    a.upper_arm = (origin(names.elbow[k]) - origin(names.shoulder[k])).normalized();
    a.forearm = (origin(names.wrist[k]) - origin(names.elbow[k])).normalized();
    a.hand = (frame(names.gripper[k]) - origin(names.wrist[k])).normalized();
    a.has_hand = true;
    a.reach = frame(names.gripper[k]) - origin(names.shoulder[k]);
  }
  return t;
}

double worst_error(const IkErrors& e) {
  double worst = std::max({e.torso, e.shoulder_axis});
  for (int s : {0, 1}) worst = std::max({worst, e.upper_arm[s], e.forearm[s], e.hand[s], e.reach[s]});
  return worst;
}

// A posture with every variable moved: torso turned and bent, arms raised forward and sideways, elbows
// bent, forearms and wrists twisted.
Eigen::VectorXd posture(const model::Model& m) {
  Eigen::VectorXd j = Eigen::VectorXd::Zero(m.nj);
  const auto set = [&](const char* name, double value) { j(m.joint_index(name)) = value; };
  set("torso_y", 0.2), set("torso_p", 0.25), set("torso_r", -0.1);
  set("r_shoulder_p", -0.9), set("r_shoulder_r", -0.4), set("r_shoulder_y", 0.3), set("r_elbow_p", -1.1);
  set("r_elbow_y", 0.4), set("r_wrist_r", 0.3), set("r_wrist_y", -0.2);
  set("l_shoulder_p", -0.3), set("l_shoulder_r", 0.8), set("l_shoulder_y", -0.2), set("l_elbow_p", -0.7);
  set("l_elbow_y", -0.3), set("l_wrist_r", -0.2), set("l_wrist_y", 0.3);
  return j;
}

TEST(UpperBodyIkChains, ReadsSevenJointArmsAThreeJointTorsoAndNoNeck) {
  const Chains& c = chains();
  const UpperBodyIk ik(c.model, c.description);
  EXPECT_EQ(ik.variables().size(), 17u);  // torso 3, neck 0, arms 7 + 7
  // Shoulder to elbow (0.004, 0, -0.28), elbow to wrist (-0.004, 0, -0.26), wrist to gripper 0.1 m: the
  // elbow is the elbow pitch (the joint farthest from both ends), not the elbow yaw. Sums of exact offsets.
  EXPECT_NEAR(ik.arm_length(), std::hypot(0.004, 0.28) + std::hypot(0.004, 0.26), 1e-12);
  EXPECT_NEAR(ik.gripper_length(), 0.1, 1e-12);
}

TEST(UpperBodyIkChains, GradientMatchesFiniteDifferences) {
  // Central differences of the objective over each variable. The objective is a sum of smooth squares
  // (the limit band is C1, the posture below stays out of it); with h = 1e-6 the truncation error is
  // ~1e-12 times the third derivative and the rounding ~1e-16 / 1e-6: 1e-7 bounds both.
  const Chains& c = chains();
  UpperBodyIk ik(c.model, c.description);
  const Eigen::VectorXd joints = posture(c.model);
  // Targets of another posture, so that every residual is non-zero.
  Eigen::VectorXd other = 0.5 * joints;
  other(c.model.joint_index("r_elbow_y")) = -0.6;
  for (const bool from_chest : {true, false}) {
    UpperBodyTargets t = targets_of(c.model, kChainsNames, other);
    t.torso_from_chest = from_chest;
    t.has_head_rotation = true;  // ignored without a neck
    t.head_rotation = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    UpperBodyIk::Vector gradient;
    ik.objective(t, joints, gradient);
    ASSERT_EQ(gradient.size(), 17);
    constexpr double h = 1e-6;
    for (int k = 0; k < 17; ++k) {
      Eigen::VectorXd plus = joints, minus = joints;
      plus(ik.variables()[static_cast<std::size_t>(k)]) += h;
      minus(ik.variables()[static_cast<std::size_t>(k)]) -= h;
      UpperBodyIk::Vector unused;
      // The continuity term is anchored at each evaluation point (it adds nothing there) and so has no
      // part in the difference either.
      const double fd = (ik.objective(t, plus, unused) - ik.objective(t, minus, unused)) / (2.0 * h);
      EXPECT_NEAR(gradient[k], fd, 1e-7) << "variable " << k << (from_chest ? " (from the chest)" : "");
    }
  }
}

TEST(UpperBodyIkChains, ReachesReachableTargets) {
  const Chains& c = chains();
  UpperBodyIk ik(c.model, c.description);
  const Eigen::VectorXd truth = posture(c.model);
  const UpperBodyTargets t = targets_of(c.model, kChainsNames, truth);
  Eigen::VectorXd joints = Eigen::VectorXd::Zero(c.model.nj);
  ik.solve_from_scratch(t, joints, 60);
  // Warm-started frames on the same targets: the continuity term pulls toward the previous frame only, so
  // the solution settles on the targets.
  for (int frame = 0; frame < 30; ++frame) ik.solve(t, joints);
  const IkErrors e = ik.errors(t, joints);
  std::printf("reachable targets: worst error %.2g (rad or m)\n", worst_error(e));
  EXPECT_LT(worst_error(e), 1e-4);
  for (int k = 0; k < 17; ++k) {
    const int j = ik.variables()[static_cast<std::size_t>(k)];
    EXPECT_GE(joints(j), c.model.lower_limit(j));
    EXPECT_LE(joints(j), c.model.upper_limit(j));
  }
}

TEST(UpperBodyIkChains, ARedundantArmStaysNearItsPosture) {
  // Targets of the posture with the right forearm twisted 0.3 rad more at the elbow and 0.3 rad less at the
  // wrist: the same directions up to the hand's own twist, which no target measures. The regularisation
  // (continuity toward the warm start) keeps the warm start's split instead of wandering along the
  // null space: solved from the posture, the arm stays at it.
  const Chains& c = chains();
  UpperBodyIk ik(c.model, c.description);
  const Eigen::VectorXd start = posture(c.model);
  const UpperBodyTargets t = targets_of(c.model, kChainsNames, start);
  Eigen::VectorXd joints = start;
  for (int frame = 0; frame < 20; ++frame) ik.solve(t, joints);
  EXPECT_LT((joints - start).cwiseAbs().maxCoeff(), 1e-6);

  // Targets moved (the right arm raised 0.2 rad more): the arm follows with the smallest change, nearer the
  // start than the posture the targets were made from with its elbow and wrist twists shifted.
  Eigen::VectorXd moved = start;
  moved(c.model.joint_index("r_shoulder_p")) -= 0.2;
  Eigen::VectorXd shifted = moved;
  shifted(c.model.joint_index("r_elbow_y")) += 0.3;
  shifted(c.model.joint_index("r_wrist_y")) -= 0.3;
  const UpperBodyTargets t2 = targets_of(c.model, kChainsNames, shifted);
  joints = start;
  for (int frame = 0; frame < 20; ++frame) ik.solve(t2, joints);
  const IkErrors e = ik.errors(t2, joints);
  EXPECT_LT(worst_error(e), 0.02);  // the hand direction differs a little between the two splits
  const double from_start = (joints - start).norm();
  std::printf("redundant arm: moved %.3g rad from the start (the targets' own posture is %.3g away)\n",
              from_start, (shifted - start).norm());
  EXPECT_LT(from_start, (shifted - start).norm());
}

TEST(UpperBodyIkChains, UnreachableTargetsDegradeGracefully) {
  // The right hand asked twice as far as the arm reaches, straight forward: the damped solve stretches the
  // arm toward it, stays finite and within the limits, and reports the remaining distance.
  const Chains& c = chains();
  UpperBodyIk ik(c.model, c.description);
  UpperBodyTargets t = targets_of(c.model, kChainsNames, Eigen::VectorXd::Zero(c.model.nj));
  ArmTargets& arm = t.arms[kRight];
  arm.upper_arm = arm.forearm = arm.hand = Eigen::Vector3d::UnitX();
  arm.reach = 2.0 * (ik.arm_length() + ik.gripper_length()) * Eigen::Vector3d::UnitX();
  Eigen::VectorXd joints = Eigen::VectorXd::Zero(c.model.nj);
  for (int frame = 0; frame < 30; ++frame) {
    const IkResult r = ik.solve(t, joints, 0.0);
    ASSERT_TRUE(std::isfinite(r.cost));
  }
  ASSERT_TRUE(joints.allFinite());
  for (int k = 0; k < 17; ++k) {
    const int j = ik.variables()[static_cast<std::size_t>(k)];
    EXPECT_GE(joints(j), c.model.lower_limit(j));
    EXPECT_LE(joints(j), c.model.upper_limit(j));
  }
  const IkErrors e = ik.errors(t, joints);
  // The arm points at the target (its segments along +x) and falls short by the difference of lengths.
  EXPECT_LT(e.upper_arm[kRight], 0.05);
  EXPECT_LT(e.forearm[kRight], 0.05);
  EXPECT_NEAR(e.reach[kRight], ik.arm_length() + ik.gripper_length(), 0.02);
  std::printf("unreachable: upper arm %.3g rad, forearm %.3g rad, reach short by %.3g m\n",
              e.upper_arm[kRight], e.forearm[kRight], e.reach[kRight]);
}

TEST(UpperBodyIkChains, AThreeJointNeckTurnsTheHead) {
  // The same robot with a neck of yaw, roll and pitch: the head's forward and up axes follow the human head
  // frame, the torso direction runs from the chest to the neck.
  const Chains c = make_chains(true);
  UpperBodyIk ik(c.model, c.description);
  EXPECT_EQ(ik.variables().size(), 20u);  // torso 3, neck 3, arms 7 + 7
  Eigen::VectorXd truth = posture(c.model);
  truth(c.model.joint_index("neck_y")) = 0.4;
  truth(c.model.joint_index("neck_r")) = -0.2;
  truth(c.model.joint_index("neck_p")) = 0.3;
  BodyNames names = kChainsNames;
  names.neck = "neck_y";
  UpperBodyTargets t = targets_of(c.model, names, truth);
  Eigen::VectorXd q = model::neutral(c.model);
  q.tail(c.model.nj) = truth;
  model::Data data(c.model);
  dynamics::forward_kinematics(c.model, data, q);
  t.has_head_rotation = true;
  t.head_rotation =
      data.oMi[static_cast<std::size_t>(model::Model::body_of_joint(c.model.joint_index("neck_p")))].R;
  Eigen::VectorXd joints = Eigen::VectorXd::Zero(c.model.nj);
  ik.solve_from_scratch(t, joints, 60);
  for (int frame = 0; frame < 30; ++frame) ik.solve(t, joints);
  const IkErrors e = ik.errors(t, joints);
  std::printf("three-joint neck: head up %.2g rad, forward %.2g rad, worst %.2g\n", e.head_up, e.head_forward,
              worst_error(e));
  EXPECT_LT(std::max({e.head_up, e.head_forward, worst_error(e)}), 1e-4);
}

TEST(UpperBodyIkChains, G1sOffsetShoulderJointsAndNoNeck) {
  // G1's arms (g1_29dof_rev_1_0.urdf): the shoulder roll and yaw joints sit 4 and 12 cm down the upper arm
  // and the elbow is bent 90 degrees at the zero pose; its waist is 3 joints and it has no neck. A
  // description written here with the URDF's joint names (config/robots/g1.yaml is another branch's).
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const model::Model m = model::load_urdf(urdf.string());
  model::RobotDescription d;
  d.source_path = "g1 (test)";
  for (const std::string side : {"right", "left"}) {
    auto& leg = side == "right" ? d.groups.right_leg : d.groups.left_leg;
    for (const char* j : {"hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll"})
      leg.push_back(side + "_" + j + "_joint");
    model::ArmGroup& arm = side == "right" ? d.groups.right_arm : d.groups.left_arm;
    for (const char* j : {"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow", "wrist_roll",
                          "wrist_pitch", "wrist_yaw"})
      arm.joints.push_back(side + "_" + j + "_joint");
    arm.end_frame = side + "_rubber_hand";
  }
  d.groups.torso = {"waist_yaw_joint", "waist_roll_joint", "waist_pitch_joint"};
  d.frames = {"right_ankle_roll_link", "left_ankle_roll_link", "right_rubber_hand", "left_rubber_hand",
              "d435_link"};
  d.retarget_groups = {"torso", "neck", "right_arm", "left_arm"};
  UpperBodyIk ik(m, d);
  EXPECT_EQ(ik.variables().size(), 17u);

  // The elbow found is the elbow joint: the arm length is shoulder pitch -> elbow -> wrist yaw at zero.
  model::Data data(m);
  dynamics::forward_kinematics(m, data, model::neutral(m));
  const auto origin = [&](const char* joint) -> Eigen::Vector3d {
    return data.oMi[static_cast<std::size_t>(model::Model::body_of_joint(m.joint_index(joint)))].p;
  };
  EXPECT_NEAR(ik.arm_length(),
              (origin("right_elbow_joint") - origin("right_shoulder_pitch_joint")).norm() +
                  (origin("right_wrist_yaw_joint") - origin("right_elbow_joint")).norm(),
              1e-12);

  const BodyNames names{"waist_pitch_joint",
                        "",
                        {"right_shoulder_pitch_joint", "left_shoulder_pitch_joint"},
                        {"right_elbow_joint", "left_elbow_joint"},
                        {"right_wrist_yaw_joint", "left_wrist_yaw_joint"},
                        {"right_rubber_hand", "left_rubber_hand"}};
  Eigen::VectorXd truth = Eigen::VectorXd::Zero(m.nj);
  const auto set = [&](const char* joint, double value) { truth(m.joint_index(joint)) = value; };
  set("waist_yaw_joint", 0.2), set("waist_pitch_joint", 0.2);
  set("right_shoulder_pitch_joint", -0.8), set("right_shoulder_roll_joint", -0.3),
      set("right_elbow_joint", 0.6);
  set("right_wrist_roll_joint", 0.4), set("left_shoulder_pitch_joint", 0.3),
      set("left_shoulder_roll_joint", 0.5);
  set("left_shoulder_yaw_joint", 0.3), set("left_elbow_joint", 1.2);
  const UpperBodyTargets t = targets_of(m, names, truth);
  Eigen::VectorXd joints = Eigen::VectorXd::Zero(m.nj);
  ik.solve_from_scratch(t, joints, 60);
  for (int frame = 0; frame < 30; ++frame) ik.solve(t, joints);
  const IkErrors e = ik.errors(t, joints);
  // A frame's solve stops once no joint moves more than options.tolerance = 1e-5 rad in an iteration; on
  // G1's waist (roll and pitch about one point, the torso direction measured from it) that leaves 6.7e-5
  // (measured, rad or m) where the synthetic robot comes down to 1e-12. 1 mrad / 1 mm bounds it.
  std::printf("G1 reachable targets: worst error %.2g (rad or m)\n", worst_error(e));
  EXPECT_LT(worst_error(e), 1e-3);
}

}  // namespace
}  // namespace mimic::retarget
