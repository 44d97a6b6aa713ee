// URDF loading: tree structure, fixed-joint merging, joint ordering, and the errors of bad files (written
// to temporary files here), each of which must name the file and the offending element.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mimic/core/error.hpp"
#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

namespace fs = std::filesystem;

class TempUrdf {
 public:
  explicit TempUrdf(const std::string& body) {
    path_ = fs::temp_directory_path() /
            ("mimic_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".urdf");
    std::ofstream(path_) << "<?xml version=\"1.0\"?>\n<robot name=\"test\">\n" << body << "</robot>\n";
  }
  ~TempUrdf() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string link(const std::string& name, double mass = 1.0, const std::string& com = "0 0 0") {
  return "<link name=\"" + name + "\"><inertial><origin xyz=\"" + com + "\"/><mass value=\"" +
         std::to_string(mass) +
         "\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.03\"/>" +
         "</inertial></link>\n";
}

std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& xyz = "0 0 0",
                  const std::string& axis = "0 0 1", const std::string& rpy = "0 0 0") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent +
         "\"/><child link=\"" + child + "\"/><origin xyz=\"" + xyz + "\" rpy=\"" + rpy + "\"/><axis xyz=\"" +
         axis + "\"/><limit lower=\"-1\" upper=\"2\" velocity=\"3\" effort=\"4\"/></joint>\n";
}

// Expects a ModelError whose message contains the file and every one of `parts`.
template <typename F>
void expect_model_error(F&& f, const std::string& file, const std::vector<std::string>& parts) {
  try {
    f();
    FAIL() << "no ModelError";
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

// A branched robot: base -> a (revolute z) -> b (prismatic x); base -> c (continuous y) with a fixed
// tool frame under c carrying 0.5 kg.
std::string branched_robot() {
  return link("base", 2.0) + link("a", 1.0, "0.1 0 0") + link("b", 1.0) + link("c", 1.0) + link("tool", 0.5) +
         joint("ja", "revolute", "base", "a", "0 0 1") +
         joint("jb", "prismatic", "a", "b", "1 0 0", "1 0 0") +
         "<joint name=\"jc\" type=\"continuous\"><parent link=\"base\"/><child link=\"c\"/>"
         "<origin xyz=\"0 1 0\"/><axis xyz=\"0 1 0\"/></joint>\n" +
         joint("jtool", "fixed", "c", "tool", "0 0 -0.5", "1 0 0", "0 1.5707963267948966 0");
}

TEST(UrdfLoading, BranchedTreeWithFixedJointMerged) {
  const TempUrdf urdf(branched_robot());
  const Model m = load_urdf(urdf.path());
  EXPECT_EQ(m.nj, 3);
  EXPECT_EQ(m.nq, 10);
  EXPECT_EQ(m.nv, 9);
  EXPECT_EQ(m.nbodies, 4);
  EXPECT_EQ(m.joint_names, (std::vector<std::string>{"ja", "jb", "jc"}));  // depth-first URDF order
  EXPECT_EQ(m.parents, (std::vector<int>{-1, 0, 1, 0}));
  EXPECT_EQ(m.joint_types[2], JointType::kPrismatic);
  EXPECT_EQ(m.axis_kinds[1], AxisKind::kZ);
  EXPECT_EQ(m.axis_kinds[2], AxisKind::kX);
  EXPECT_EQ(m.axis_kinds[3], AxisKind::kY);
  // continuous joint: no position limits, velocity/effort absent -> unlimited
  EXPECT_TRUE(std::isinf(m.lower_limit[2]) && m.lower_limit[2] < 0);
  EXPECT_TRUE(std::isinf(m.upper_limit[2]));
  EXPECT_EQ(m.lower_limit[0], -1.0);
  EXPECT_EQ(m.upper_limit[0], 2.0);
  EXPECT_EQ(m.velocity_limit[0], 3.0);
  EXPECT_EQ(m.effort_limit[0], 4.0);
  // tool (0.5 kg at (0, 0, -0.5) in c) merged into c: 1.5 kg, COM at z = -0.5 * 0.5 / 1.5
  EXPECT_DOUBLE_EQ(m.inertias[3].mass, 1.5);
  // A mass-weighted mean of two positions: a few roundings of 0.17 (one ulp = 2.8e-17); measured 0.
  EXPECT_NEAR(m.inertias[3].com.z(), -0.5 / 3.0, 1e-15);
  EXPECT_DOUBLE_EQ(m.total_mass(), 5.5);
  // the rotated tool inertia (diag 0.01, 0.02, 0.03 turned 90 deg about y: xx <-> zz) + parallel axis
  const Mat3 tool_about_c_com = Vec3(0.03, 0.02, 0.01).asDiagonal();
  const double d_tool = 0.5 - 0.5 / 3.0, d_c = 0.5 / 3.0;  // distances of the two COMs to the merged COM
  const double parallel = 0.5 * d_tool * d_tool + 1.0 * d_c * d_c;
  // Sums of products of values <= 0.5 (one ulp of the ~0.12 result = 1.4e-17): measured 1.4e-17 and 0.
  // 1e-15 is ~70 ulp; a missing parallel-axis term or unrotated tool inertia is >= 0.02.
  EXPECT_NEAR(m.inertias[3].inertia_com(0, 0), 0.01 + tool_about_c_com(0, 0) + parallel, 1e-15);
  EXPECT_NEAR(m.inertias[3].inertia_com(2, 2), 0.03 + tool_about_c_com(2, 2), 1e-15);
  // frames: every link, the tool one at its fixed placement in body c
  ASSERT_TRUE(m.has_frame("tool"));
  const Frame& tool = m.frames[m.frame_index("tool")];
  EXPECT_EQ(tool.body, 3);
  // The origin is read as written (default isApprox, 1e-12 relative, is rounding only; measured 0); the
  // rotation's sin(pi / 2) rounds to exactly 1 (measured 0), 1e-15 allows a few ulp of another formula.
  EXPECT_TRUE(tool.placement.p.isApprox(Vec3(0, 0, -0.5)));
  EXPECT_NEAR(tool.placement.R(0, 2), 1.0, 1e-15);
}

TEST(UrdfLoading, RequestedJointOrderAndFixedBase) {
  const TempUrdf urdf(branched_robot());
  LoadOptions options;
  options.root = RootType::kFixed;
  options.joint_order = {"jc", "ja", "jb"};
  const Model m = load_urdf(urdf.path(), options);
  EXPECT_EQ(m.nq, 3);
  EXPECT_EQ(m.nv, 3);
  EXPECT_EQ(m.joint_names, (std::vector<std::string>{"jc", "ja", "jb"}));
  EXPECT_EQ(m.parents, (std::vector<int>{-1, 0, 0, 2}));
  EXPECT_EQ(m.body_names[3], "b");
  EXPECT_EQ(m.joint_index("jb"), 2);
  EXPECT_EQ(m.idx_q(2), 2);
}

TEST(UrdfLoading, MissingFile) {
  expect_model_error([] { load_urdf("/nonexistent/robot.urdf"); }, "/nonexistent/robot.urdf",
                     {"no such file"});
}

TEST(UrdfLoading, NotXml) {
  const TempUrdf urdf("<link name=\"a\"");  // truncated XML
  expect_model_error([&] { load_urdf(urdf.path()); }, urdf.path(), {"not a valid URDF"});
}

TEST(UrdfLoading, UnknownJointType) {
  const TempUrdf urdf(link("base") + link("a") + joint("ball_joint", "spherical", "base", "a"));
  expect_model_error([&] { load_urdf(urdf.path()); }, urdf.path(), {"ball_joint", "spherical"});
}

TEST(UrdfLoading, UnsupportedFloatingJoint) {
  const TempUrdf urdf(link("base") + link("a") + joint("float_joint", "floating", "base", "a"));
  expect_model_error([&] { load_urdf(urdf.path()); }, urdf.path(), {"float_joint", "floating"});
}

TEST(UrdfLoading, MissingInertialOnMovingBody) {
  const TempUrdf urdf(link("base") + "<link name=\"arm\"/>\n" + joint("j", "revolute", "base", "arm"));
  expect_model_error([&] { load_urdf(urdf.path()); }, urdf.path(), {"arm", "<inertial>"});
}

TEST(UrdfLoading, MissingInertialOnFixedFrameIsFine) {
  const TempUrdf urdf(link("base") + "<link name=\"marker\"/>\n" + joint("j", "fixed", "base", "marker"));
  const Model m = load_urdf(urdf.path());
  EXPECT_EQ(m.nj, 0);
  EXPECT_TRUE(m.has_frame("marker"));
}

TEST(UrdfLoading, RootWithoutInertialIsFineForAFixedBase) {
  const TempUrdf urdf("<link name=\"world\"/>\n" + link("a") + joint("j", "revolute", "world", "a"));
  LoadOptions fixed;
  fixed.root = RootType::kFixed;
  EXPECT_EQ(load_urdf(urdf.path(), fixed).nj, 1);
  expect_model_error([&] { load_urdf(urdf.path()); }, urdf.path(), {"world", "<inertial>"});
}

TEST(UrdfLoading, MissingOpenHrpJoint) {
  // The real HRP-2 file with one joint renamed.
  std::ifstream in(test::hrp2_urdf());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "name=\"HEAD_JOINT1\"";
  text.replace(text.find(from), from.size(), "name=\"NECK_PITCH\"");
  const std::string body = text.substr(text.find("<robot name=\"hrp2\">") + 19);
  const TempUrdf urdf(body.substr(0, body.rfind("</robot>")));
  expect_model_error([&] { load_urdf(urdf.path(), LoadOptions::hrp2()); }, urdf.path(), {"HEAD_JOINT1"});
}

TEST(UrdfLoading, JointOrderErrors) {
  const TempUrdf urdf(branched_robot());
  LoadOptions child_first;
  child_first.joint_order = {"jb", "ja", "jc"};
  expect_model_error([&] { load_urdf(urdf.path(), child_first); }, urdf.path(), {"jb", "before its parent"});
  LoadOptions incomplete;
  incomplete.joint_order = {"ja", "jb"};
  expect_model_error([&] { load_urdf(urdf.path(), incomplete); }, urdf.path(),
                     {"jc", "not in the requested"});
}

TEST(UrdfLoading, UnknownNamesThrow) {
  const TempUrdf urdf(branched_robot());
  const Model m = load_urdf(urdf.path());
  expect_model_error([&] { (void)m.joint_index("nope"); }, urdf.path(), {"nope"});
  expect_model_error([&] { (void)m.frame_index("nowhere"); }, urdf.path(), {"nowhere"});
}

}  // namespace
}  // namespace mimic::model
