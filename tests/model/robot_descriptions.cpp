// The shipped JVRC-1 and G1 descriptions (config/robots/jvrc1.yaml, g1.yaml) on their URDFs as published
// (../shared/robots): they load unmodified, with the joint counts, masses and orders of the robots; the
// URDF-level features they need (a floating root joint, fixed links merged, held joints, added frames).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/model/robot.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The sum of every <mass value="..."> of a URDF, read from its text (not through urdfdom).
double urdf_mass_sum(const fs::path& path) {
  const std::string text = read_text(path);
  static const std::regex mass_re(R"re(<mass\s+value\s*=\s*"([^"]*)")re");
  double sum = 0.0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), mass_re); it != std::sregex_iterator(); ++it)
    sum += std::stod((*it)[1]);
  return sum;
}

std::string description_path(const std::string& robot) {
  return (test::source_dir() / "config" / "robots" / (robot + ".yaml")).string();
}

TEST(RobotDescriptions, Jvrc1LoadsWithFingersHeld) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  // The URDF as it is: 44 moving joints (12 leg, 3 waist, 3 neck, 2 x 7 arm, 2 x 6 finger), a massless
  // root link (base_link) whose fixed child PELVIS_S carries the mass.
  const Model full = load_urdf(urdf.string());
  EXPECT_EQ(full.nj, 44);
  EXPECT_EQ(full.body_names[0], "base_link");
  const Robot robot = load_robot(description_path("jvrc1"), std::nullopt, urdf.string());
  EXPECT_EQ(robot.model.nj, 32);
  EXPECT_EQ(robot.description.held_joints.size(), 12u);
  EXPECT_EQ(robot.model.joint_names, robot.description.joint_order);
  for (const HeldJoint& held : robot.description.held_joints) {
    EXPECT_FALSE(robot.model.has_joint(held.name)) << held.name;
    EXPECT_TRUE(full.has_joint(held.name)) << held.name;
    // Its child link is merged into the wrist body: a frame, no body of its own.
    const std::string& child =
        full.body_names[static_cast<std::size_t>(Model::body_of_joint(full.joint_index(held.name)))];
    EXPECT_TRUE(robot.model.has_frame(child)) << child;
    EXPECT_EQ(std::count(robot.model.body_names.begin(), robot.model.body_names.end(), child), 0) << child;
  }
  // Merging moves mass between bodies, never adds or loses any.
  EXPECT_NEAR(robot.model.total_mass(), urdf_mass_sum(urdf), 1e-9);
  EXPECT_NEAR(full.total_mass(), urdf_mass_sum(urdf), 1e-9);
  EXPECT_EQ(robot.description.groups.right_arm.joints.size(), 7u);
  EXPECT_EQ(robot.description.groups.torso.size(), 3u);
  EXPECT_EQ(robot.description.groups.neck.size(), 3u);
  EXPECT_TRUE(robot.model.has_frame("r_sole"));
}

TEST(RobotDescriptions, G1LoadsInUnitreeOrder) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const Robot robot = load_robot(description_path("g1"), std::nullopt, urdf.string());
  EXPECT_EQ(robot.model.nj, 29);
  EXPECT_TRUE(robot.description.held_joints.empty());
  // The URDF's depth-first order is the Unitree DDS order (legs, waist, arms), which joint_order repeats.
  EXPECT_EQ(robot.model.joint_names, load_urdf(urdf.string()).joint_names);
  EXPECT_EQ(robot.model.joint_names, robot.description.joint_order);
  EXPECT_EQ(robot.model.body_names[0], "pelvis");
  EXPECT_NEAR(robot.model.total_mass(), urdf_mass_sum(urdf), 1e-9);
  EXPECT_TRUE(robot.description.groups.neck.empty());
  EXPECT_EQ(robot.description.groups.left_arm.joints.size(), 7u);
  // The sensor links (imu_in_torso, d435_link, ...) stay frames of the body they are fixed to.
  const auto torso = robot.model.body_index("torso_link");
  EXPECT_EQ(robot.model.frames[static_cast<std::size_t>(robot.model.frame_index("d435_link"))].body, torso);
  EXPECT_EQ(robot.model.frames[static_cast<std::size_t>(robot.model.frame_index("left_sole"))].body,
            robot.model.body_index("left_ankle_roll_link"));
}

// G1's URDF carries its floating root joint commented out ("uncomment when convert to mujoco"): with it
// in, the floating joint is the free-flyer and the model is the same.
TEST(RobotDescriptions, FloatingRootJointIsTheFreeFlyer) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  std::string text = read_text(urdf);
  const std::string open = "<!-- <link name=\"world\"></link>";
  const auto at = text.find(open);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, open.size(), "<link name=\"world\"></link>");
  const auto close = text.find("</joint> -->", at);
  ASSERT_NE(close, std::string::npos);
  text.replace(close, 12, "</joint>");
  const fs::path floating = fs::temp_directory_path() /
                            ("mimic_test_g1_floating_" +
                             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".urdf");
  std::ofstream(floating) << text;
  const Model with_joint = load_urdf(floating.string());
  const Model without = load_urdf(urdf.string());
  fs::remove(floating);
  EXPECT_EQ(with_joint.body_names[0], "pelvis");
  EXPECT_FALSE(with_joint.has_frame("world"));
  EXPECT_EQ(with_joint.joint_names, without.joint_names);
  EXPECT_EQ(with_joint.nq, without.nq);
  EXPECT_NEAR(with_joint.total_mass(), without.total_mass(), 1e-12);
}

TEST(RobotDescriptions, UrdfComesFromModelOption) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  // The override replaces the file's urdf (which need not exist then).
  const RobotDescription description = load_robot_description(description_path("jvrc1"), urdf.string());
  EXPECT_EQ(description.urdf, urdf.string());
}

TEST(RobotDescriptions, HeldJointIsNotInTheNominalPose) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  std::string text = read_text(description_path("jvrc1"));
  const std::string joints = "  joints:\n";
  text.replace(text.find(joints), joints.size(), joints + "    R_UTHUMB: 0.1\n");
  const fs::path path = fs::temp_directory_path() / "mimic_test_jvrc1_held_in_pose.yaml";
  std::ofstream(path) << text;
  try {
    load_robot_description(path.string(), urdf.string());
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("R_UTHUMB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("held"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

// mesh_root (where package:// meshes are read) is a path of the description: relative to its folder, or
// under ${MIMIC_ROBOTS_DIR}.
TEST(RobotDescriptions, MeshRootIsResolvedAgainstTheDescription) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  const fs::path dir = fs::temp_directory_path() / "mimic_test_mesh_root";
  fs::create_directories(dir);
  std::ofstream(dir / "jvrc1.yaml") << "mesh_root: my_meshes/jvrc1\n" << read_text(description_path("jvrc1"));
  const RobotDescription description = load_robot_description((dir / "jvrc1.yaml").string(), urdf.string());
  EXPECT_EQ(description.mesh_root, (dir / "my_meshes" / "jvrc1").string());
  fs::remove_all(dir);
}

TEST(RobotDescriptions, AddedFrameWithTheNameOfALinkIsAnError) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  std::string text = read_text(description_path("jvrc1"));
  const std::string added = "added_frames:\n";
  text.replace(text.find(added), added.size(),
               added + "  r_wrist: {link: R_WRIST_Y_S, xyz: [0, 0, 0], rpy: [0, 0, 0]}\n");
  const fs::path path = fs::temp_directory_path() / "mimic_test_jvrc1_added_link.yaml";
  std::ofstream(path) << text;
  try {
    load_robot_description(path.string(), urdf.string());
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'r_wrist' is already a link of the URDF"), std::string::npos)
        << e.what();
  }
  fs::remove(path);
}

}  // namespace
}  // namespace mimic::model
