// config/robots/hrp2.yaml as a RobotDescription: frames, soles and nominal pose, agreement with the URDF's
// sole collision boxes, and strict key checking.
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "mimic/core/error.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "model/robot_yaml_files.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

namespace fs = std::filesystem;
using testing::read;
using testing::text_path;

const fs::path kConfig = test::source_dir() / "config" / "robots" / "hrp2.yaml";

// Writes `text` to a temporary file (with the urdf path made absolute) and loads it.
RobotDescription load_text(const std::string& text) {
  return testing::load_text(text, [](const std::string& path) { return load_robot_description(path); });
}

void expect_input_error(const std::string& text, const std::vector<std::string>& parts) {
  try {
    load_text(text);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

TEST(Hrp2Description, Hrp2Values) {
  const RobotDescription c = load_robot_description(kConfig.string());
  EXPECT_TRUE(fs::equivalent(c.urdf, test::hrp2_urdf()));
  EXPECT_EQ(c.frames.right_sole, "r_sole");
  EXPECT_EQ(c.frames.gaze, "gaze");
  EXPECT_EQ(c.nominal_pose.waist, Vec3(0, 0, 0.648702));  // [S1, S2, S16]
  EXPECT_EQ(c.nominal_pose.joint_names, openhrp_joint_names());
  // reference section 5: right foot x in [-0.100, 0.130], y in [-0.075, 0.056]; left mirrored
  EXPECT_EQ(c.right_sole.x_min, -0.100);
  EXPECT_EQ(c.right_sole.x_max, 0.130);
  EXPECT_EQ(c.right_sole.y_min, -0.075);
  EXPECT_EQ(c.right_sole.y_max, 0.056);
  EXPECT_EQ(c.left_sole.y_min, -c.right_sole.y_max);
  EXPECT_EQ(c.left_sole.y_max, -c.right_sole.y_min);
  EXPECT_EQ(c.left_sole.x_min, c.right_sole.x_min);

  const Model m = load_urdf(c.urdf, LoadOptions::hrp2());
  const Eigen::VectorXd q = c.nominal_q(m);
  EXPECT_EQ(q.size(), 37);
  EXPECT_EQ(q[6], 1.0);
  EXPECT_EQ(q[m.idx_q(m.joint_index("RLEG_JOINT3"))], 0.872665);
  EXPECT_EQ(q[m.idx_q(m.joint_index("LARM_JOINT1"))], 0.174533);
  // the frames named in the description exist in the model
  for (const auto& f : {c.frames.right_sole, c.frames.left_sole, c.frames.right_gripper,
                        c.frames.left_gripper, c.frames.gaze})
    EXPECT_TRUE(m.has_frame(f)) << f;
}

// The sole rectangles of the YAML are the bottom faces of the URDF sole collision boxes (same numbers in two
// places: this keeps them from drifting apart). 1e-9: the URDF stores the box centre and size rounded to
// 1e-6 by the generator, but these particular values are exact in decimal.
TEST(Hrp2Description, SoleRectanglesMatchUrdfCollisionBoxes) {
  const RobotDescription c = load_robot_description(kConfig.string());
  const auto urdf = urdf::parseURDFFile(c.urdf);
  ASSERT_TRUE(urdf);
  for (const auto& [name, rect] : {std::pair{std::string("r_sole"), c.right_sole}, {"l_sole", c.left_sole}}) {
    const auto link = urdf->getLink(name);
    ASSERT_TRUE(link && link->collision) << name;
    const auto box = std::dynamic_pointer_cast<urdf::Box>(link->collision->geometry);
    ASSERT_TRUE(box);
    const auto& o = link->collision->origin.position;
    EXPECT_NEAR(o.x - box->dim.x / 2, rect.x_min, 1e-9) << name;
    EXPECT_NEAR(o.x + box->dim.x / 2, rect.x_max, 1e-9) << name;
    EXPECT_NEAR(o.y - box->dim.y / 2, rect.y_min, 1e-9) << name;
    EXPECT_NEAR(o.y + box->dim.y / 2, rect.y_max, 1e-9) << name;
    EXPECT_NEAR(o.z - box->dim.z / 2, 0.0, 1e-9) << name;  // bottom face on the sole plane
  }
}

TEST(Hrp2Description, UnknownKeyNamesKeyAndLine) {
  std::string text = read(kConfig);
  text = std::regex_replace(text, std::regex("  gaze: gaze"), "  gaze: gaze\n  nose: nose");
  // line of the inserted key, 1-based
  const auto upto = text.substr(0, text.find("  nose:"));
  const int line = static_cast<int>(std::count(upto.begin(), upto.end(), '\n')) + 1;
  expect_input_error(text, {":line " + std::to_string(line) + ":", "unknown key 'frames.nose'"});
}

TEST(Hrp2Description, UnknownTopLevelKey) {
  expect_input_error(read(kConfig) + "extra: 1\n", {"unknown key 'extra'"});
}

TEST(Hrp2Description, MissingKey) {
  const std::string text = std::regex_replace(read(kConfig), std::regex("  left: \\{[^}]*\\}\n"), "");
  expect_input_error(text, {"missing required key 'soles.left'"});
}

TEST(Hrp2Description, BadNumberAndEmptyRectangle) {
  expect_input_error(std::regex_replace(read(kConfig), std::regex("x_max: 0.130"), "x_max: far"),
                     {"soles.right.x_max", "expected a number"});
  expect_input_error(std::regex_replace(read(kConfig), std::regex("x_max: 0.130"), "x_max: -0.2"),
                     {"empty rectangle"});
}

// A missing file: tests/model/robot_description.cpp (DefaultDescription).
TEST(Hrp2Description, MalformedYaml) {
  // yaml-cpp's parser errors carry the file, the line and what the parser expected. An unclosed flow
  // sequence is found at the end of the text (line 2, after the last newline): "end of sequence flow not
  // found" is yaml-cpp's wording for the missing ']'.
  expect_input_error("frames: [a, b\n",
                     {text_path().string() + ":line 2: invalid YAML: end of sequence flow not found"});
  // A second value on the line of a key, in the middle of the shipped file: the line is that line.
  std::string text = read(kConfig);
  const auto upto = text.substr(0, text.find("  gaze: gaze"));
  const int line = static_cast<int>(std::count(upto.begin(), upto.end(), '\n')) + 1;
  text = std::regex_replace(text, std::regex("  gaze: gaze"), "  gaze: gaze: eye");
  expect_input_error(
      text, {text_path().string() + ":line " + std::to_string(line) + ": invalid YAML: illegal map value"});
}

// The description's names are checked against its URDF when it is loaded; a model loaded from another
// URDF can still lack a joint of the pose.
TEST(Hrp2Description, UnknownJointInHalfSitting) {
  expect_input_error(std::regex_replace(read(kConfig), std::regex("    HEAD_JOINT1:"), "    NECK:"),
                     {"nominal_pose.joints: no joint 'NECK'"});
  RobotDescription c = load_robot_description(kConfig.string());
  c.nominal_pose.joint_names[14] = "NECK";
  const Model m = load_urdf(c.urdf, LoadOptions::hrp2());
  EXPECT_THROW(c.nominal_q(m), ModelError);
}

}  // namespace
}  // namespace mimic::model
