// `mimic plot`: the data files and the gnuplot script of known motions, and the figures gnuplot draws.
#include "mimic/pipeline/plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/pipeline/robot.hpp"
#include "support/required_tool.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace {

using namespace mimic;
namespace fs = std::filesystem;

const pipeline::Robot& robot() {
  static const pipeline::Robot r = pipeline::load_robot({});
  return r;
}

fs::path walk_motion() { return test::source_dir() / "data" / "motions" / "walk_bar_planned.pos"; }

// A folder of its own for one test, removed at the end.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& stem) : path(test::unique_temp_path("plot_" + stem)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Half-sitting for `seconds` at 200 Hz, .pos only (the base is reconstructed), still but for the right
// elbow, which turns by `elbow_swing` rad at a constant rate.
io::MotionFiles still_motion(double seconds, double elbow_swing = 0.0) {
  const auto& r = robot();
  const Eigen::VectorXd q = r.description.nominal_q(r.model);
  const int n = static_cast<int>(std::lround(seconds / 0.005)) + 1;
  io::MotionFiles files;
  files.pos.angles.resize(n, r.model.nj);
  for (int k = 0; k < n; ++k) {
    files.pos.times.push_back(0.005 * k);
    files.pos.angles.row(k) = q.tail(r.model.nj).transpose();
  }
  files.pos.angles.col(r.model.joint_index("RARM_JOINT3")) += Eigen::VectorXd::LinSpaced(n, 0.0, elbow_swing);
  files.pos.extra.resize(n, 0);
  return files;
}

pipeline::LabelledMotion labelled(const std::string& label, io::MotionFiles files) {
  return pipeline::LabelledMotion{label, fs::path(label + ".pos"), std::move(files)};
}

std::vector<std::vector<double>> read_table(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<double> row;
    for (std::string token; fields >> token;) row.push_back(token == "NaN" ? NAN : std::stod(token));
    rows.push_back(row);
  }
  return rows;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string& file_named(const std::vector<pipeline::PlotFileSet>& files, const std::string& name) {
  for (const auto& f : files)
    if (f.name == name) return f.contents;
  throw std::runtime_error("no file " + name);
}

TEST(Plot, StillHalfSittingZmpIsTheComProjectionInsideThePolygon) {
  const auto& r = robot();
  const auto data =
      pipeline::compute_plot_data(r.model, r.feet, labelled("still", still_motion(0.5)), {}, {}, {});
  ASSERT_EQ(data.times.size(), 101u);
  EXPECT_TRUE(data.base_reconstructed);
  ASSERT_EQ(data.outlines.size(), 1u);  // double support throughout: one outline, at the start
  EXPECT_EQ(data.outlines[0].phase, model::ContactPhase::kDoubleSupport);
  EXPECT_EQ(data.outlines[0].time, 0.0);
  for (Eigen::Index k = 0; k < data.zmp.cols(); ++k) {
    // Nothing moves, so the momentum rate is zero and the ZMP is the CoM's projection up to rounding:
    // measured 5.7e-15 m apart.
    EXPECT_NEAR(data.zmp(0, k), data.com(0, k), 1e-12) << "sample " << k;
    EXPECT_NEAR(data.zmp(1, k), data.com(1, k), 1e-12) << "sample " << k;
    // Measured 0.1005 m, the CoM's distance to the heel edge of the double-support polygon; 1 mm below it
    // catches a polygon or a CoM off by more than that.
    EXPECT_NEAR(data.margin[static_cast<std::size_t>(k)], 0.1005, 0.001) << "sample " << k;
    EXPECT_LT(data.support_bounds(0, k), data.zmp(0, k));
    EXPECT_GT(data.support_bounds(1, k), data.zmp(0, k));
    EXPECT_LT(data.support_bounds(2, k), data.zmp(1, k));
    EXPECT_GT(data.support_bounds(3, k), data.zmp(1, k));
  }
  // Nothing moves: the joints figure still has panels (the first joints), at most max_joints.
  EXPECT_EQ(data.joints.size(), 8u);
  EXPECT_EQ(data.torque_joints.size(), 6u);
  // The most loaded joint of a still robot carries weight: a leg joint, with a non-zero torque.
  const int top = data.torque_joints[0];
  // Measured -30.41 N m (a knee); statics of a still pose, exact but for rounding: 0.01 N m.
  EXPECT_NEAR(std::abs(data.torques(top, 0)), 30.41, 0.01);
  EXPECT_EQ(data.joint_names[static_cast<std::size_t>(top)].substr(1, 3), "LEG")
      << data.joint_names[static_cast<std::size_t>(top)];
}

TEST(Plot, DataFilesCarryTheMotionTorquesAndZmp) {
  const auto& r = robot();
  const auto data =
      pipeline::compute_plot_data(r.model, r.feet, labelled("still", still_motion(0.2)), {}, {}, {});
  const auto files = pipeline::plot_files(data, pipeline::PlotFormat::kPng, "still");
  const auto zmp = read_table(file_named(files, "zmp.dat"));
  ASSERT_EQ(zmp.size(), data.times.size());
  for (std::size_t k = 0; k < zmp.size(); ++k) {
    ASSERT_EQ(zmp[k].size(), 11u);
    EXPECT_DOUBLE_EQ(zmp[k][0], data.times[k]);
    EXPECT_DOUBLE_EQ(zmp[k][1], data.zmp(0, static_cast<Eigen::Index>(k)));
    EXPECT_DOUBLE_EQ(zmp[k][3], data.com(0, static_cast<Eigen::Index>(k)));
    EXPECT_GT(zmp[k][9], 0.0);   // margin
    EXPECT_EQ(zmp[k][10], 0.0);  // double support
  }
  const auto torques = read_table(file_named(files, "torques.dat"));
  ASSERT_EQ(torques.size(), data.times.size());
  ASSERT_EQ(torques[0].size(), 31u);
  for (int j = 0; j < 30; ++j)
    EXPECT_DOUBLE_EQ(torques[0][static_cast<std::size_t>(j + 1)], data.torques(j, 0));
  // One closed outline (the double-support hull): first vertex repeated at the end.
  const auto support = read_table(file_named(files, "support.dat"));
  ASSERT_GE(support.size(), 5u);
  EXPECT_EQ(support.front(), support.back());
}

TEST(Plot, WalkJointColumnsEqualThePosAndLimitsAreTheModels) {
  const auto& r = robot();
  const io::MotionFiles files = io::read_motion(walk_motion());
  const auto still = still_motion(1.0, 0.3);
  const auto data = pipeline::compute_plot_data(r.model, r.feet, {"walk", walk_motion(), files},
                                                {labelled("still", still)}, {}, {});
  ASSERT_EQ(data.motions.size(), 2u);
  EXPECT_EQ(data.motions[0].label, "walk");
  EXPECT_EQ(data.motions[1].label, "still");
  // Walking: the legs move the most; several support changes, each with its outline.
  ASSERT_FALSE(data.joints.empty());
  EXPECT_LE(data.joints.size(), 8u);
  EXPECT_TRUE(std::find(data.joints.begin(), data.joints.end(), r.model.joint_index("RLEG_JOINT3")) !=
              data.joints.end());
  EXPECT_GT(data.outlines.size(), 3u);
  bool right = false, left = false;
  for (const auto& o : data.outlines) {
    right |= o.phase == model::ContactPhase::kRightSupport;
    left |= o.phase == model::ContactPhase::kLeftSupport;
  }
  EXPECT_TRUE(right && left);

  const auto out = pipeline::plot_files(data, pipeline::PlotFormat::kSvg, "walk");
  // motion0.dat: time and the 30 joint angles, exactly the .pos values (shortest round-trip text).
  const auto table = read_table(file_named(out, "motion0.dat"));
  ASSERT_EQ(static_cast<Eigen::Index>(table.size()), files.pos.size());
  for (std::size_t k = 0; k < table.size(); k += 37) {
    ASSERT_EQ(table[k].size(), 31u);
    EXPECT_DOUBLE_EQ(table[k][0], files.pos.times[k]);
    for (int j = 0; j < 30; ++j)
      EXPECT_EQ(table[k][static_cast<std::size_t>(j + 1)], files.pos.angles(static_cast<Eigen::Index>(k), j))
          << "sample " << k << " joint " << j;
  }
  // The comparison motion has its own time axis (1 s, not the walk's duration).
  const auto other = read_table(file_named(out, "motion1.dat"));
  EXPECT_EQ(other.size(), 201u);
  EXPECT_DOUBLE_EQ(other.back()[0], 1.0);
  // The script draws every selected joint of both motions, with the model's limits in degrees.
  const std::string& gp = file_named(out, "plot.gp");
  EXPECT_NE(gp.find("set terminal @term"), std::string::npos);
  EXPECT_NE(gp.find("svg"), std::string::npos);
  EXPECT_NE(gp.find("prefix.'joints.svg'"), std::string::npos);
  EXPECT_NE(gp.find("prefix.'torques.svg'"), std::string::npos);
  EXPECT_NE(gp.find("prefix.'zmp.svg'"), std::string::npos);
  for (const int j : data.joints) {
    const std::string column = "using 1:(column(" + std::to_string(j + 2) + ")*180/pi)";
    EXPECT_NE(gp.find("'motion0.dat' " + column), std::string::npos) << column;
    EXPECT_NE(gp.find("'motion1.dat' " + column), std::string::npos) << column;
    for (const double limit : {r.model.lower_limit[j], r.model.upper_limit[j]}) {
      const std::string line = core::format_number(limit * (180.0 / M_PI)) + " with lines dt 2";
      EXPECT_NE(gp.find(line), std::string::npos) << line;
    }
  }
  for (const int j : data.torque_joints) {
    EXPECT_NE(gp.find("'torques.dat' using 1:" + std::to_string(j + 2) + " "), std::string::npos);
    EXPECT_NE(gp.find(core::format_number(r.model.effort_limit[j]) + " with lines dt 2"), std::string::npos);
    EXPECT_NE(gp.find(core::format_number(-r.model.effort_limit[j]) + " with lines dt 2"), std::string::npos);
  }
}

// geometry.<fmt> draws the scan of `mimic check` (evaluation::check_geometry): its per-sample minima are
// the data, the safety distance a line; without a collision model there is no such figure.
TEST(Plot, GeometryFigureDrawsTheClosestPairAgainstTheSafetyDistance) {
  const auto& r = robot();
  const io::MotionFiles files = io::read_motion(walk_motion());
  const pipeline::LabelledMotion walk{"walk", walk_motion(), files};
  const auto without = pipeline::compute_plot_data(r.model, r.feet, walk, {}, {}, {});
  EXPECT_FALSE(without.geometry);
  const auto plain = pipeline::plot_files(without, pipeline::PlotFormat::kPng, "walk");
  EXPECT_THROW(file_named(plain, "geometry.dat"), std::runtime_error);
  EXPECT_EQ(file_named(plain, "plot.gp").find("geometry"), std::string::npos);

  pipeline::PlotGeometry geometry;
  geometry.collision = r.collision;
  geometry.check.safety_distance = 0.02;
  const auto data = pipeline::compute_plot_data(r.model, r.feet, walk, {}, {}, {}, geometry);
  ASSERT_TRUE(data.geometry);
  const evaluation::GeometryReport& g = *data.geometry;
  ASSERT_EQ(g.sample_min_distance.size(), static_cast<Eigen::Index>(data.times.size()));
  // The planned walk: no pair within 2 cm, the feet flat on the floor (to the leg IK's 1e-9 m).
  EXPECT_GT(g.min_distance, 0.02);
  EXPECT_NEAR(g.min_corner_height, 0.0, 1e-6);

  const auto out = pipeline::plot_files(data, pipeline::PlotFormat::kPng, "walk");
  const auto table = read_table(file_named(out, "geometry.dat"));
  ASSERT_EQ(table.size(), data.times.size());
  for (std::size_t k = 0; k < table.size(); k += 53) {
    ASSERT_EQ(table[k].size(), 3u);
    EXPECT_DOUBLE_EQ(table[k][0], data.times[k]);
    EXPECT_EQ(table[k][1], g.sample_min_distance[static_cast<Eigen::Index>(k)]);
    EXPECT_EQ(table[k][2], g.sample_min_corner_height[static_cast<Eigen::Index>(k)]);
  }
  const std::string& gp = file_named(out, "plot.gp");
  EXPECT_NE(gp.find("prefix.'geometry.png'"), std::string::npos);
  EXPECT_NE(gp.find("'geometry.dat' using 1:($2*1000)"), std::string::npos);
  EXPECT_NE(gp.find("20 with lines dt 2"), std::string::npos) << gp;  // the safety distance, in mm
  EXPECT_NE(gp.find(g.closest_first + " / " + g.closest_second), std::string::npos);
}

TEST(Plot, ChosenJointsAndUnknownJoint) {
  const auto& r = robot();
  pipeline::PlotSelection selection;
  selection.joints = {"RARM_JOINT3", "LARM_JOINT3", "RARM_JOINT3"};
  const auto data =
      pipeline::compute_plot_data(r.model, r.feet, labelled("still", still_motion(0.1)), {}, {}, selection);
  ASSERT_EQ(data.joints.size(), 2u);  // duplicates dropped
  EXPECT_EQ(data.joints[0], r.model.joint_index("RARM_JOINT3"));
  EXPECT_EQ(data.joints[1], r.model.joint_index("LARM_JOINT3"));

  selection.joints = {"RARM_JOINT3", "RIGHT_ELBOW"};
  try {
    pipeline::compute_plot_data(r.model, r.feet, labelled("still", still_motion(0.1)), {}, {}, selection);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'RIGHT_ELBOW'"), std::string::npos) << what;
    EXPECT_NE(what.find("LARM_JOINT6"), std::string::npos) << what;  // lists the valid names
  }
}

TEST(Plot, MissingMotionIsAnInputError) {
  const TempDir dir("missing");
  pipeline::PlotOptions options;
  options.render = false;
  options.output_dir = dir.path / "plots";
  EXPECT_THROW(pipeline::plot_motion(robot().model, robot().feet, dir.path / "nothing.pos", {}, options),
               InputError);
  EXPECT_FALSE(fs::exists(options.output_dir));
  // A comparison that does not exist is as bad.
  io::write_motion(dir.path / "still", still_motion(0.1));
  options.compare = {dir.path / "other.pos"};
  EXPECT_THROW(pipeline::plot_motion(robot().model, robot().feet, dir.path / "still.pos", {}, options),
               InputError);
}

TEST(Plot, MissingGnuplotIsAnOutputError) {
  const TempDir dir("nognuplot");
  io::write_motion(dir.path / "still", still_motion(0.1));
  pipeline::PlotOptions options;
  options.gnuplot = (dir.path / "no-such-gnuplot").string();
  try {
    pipeline::plot_motion(robot().model, robot().feet, dir.path / "still.pos", {}, options);
    FAIL() << "no OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("gnuplot-nox"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.path / "still.plots" / "joints.png"));
}

TEST(Plot, DataOnlyWritesTheFolderBesideTheMotionWithAutomaticComparisons) {
  const TempDir dir("auto");
  io::write_motion(dir.path / "clip", still_motion(0.4, 0.2));
  io::write_motion(dir.path / "clip.original", still_motion(0.3, 0.1));
  io::write_motion(dir.path / "clip.reference", still_motion(0.5, 0.15));
  pipeline::PlotOptions options;
  options.render = false;
  const auto result = pipeline::plot_motion(robot().model, robot().feet, dir.path / "clip.pos", {}, options);
  EXPECT_EQ(result.dir, dir.path / "clip.plots");
  EXPECT_EQ(result.labels, (std::vector<std::string>{"clip", "clip.original", "clip.reference"}));
  EXPECT_TRUE(result.figures.empty());
  EXPECT_TRUE(fs::is_regular_file(dir.path / "clip.plots" / "plot.gp"));
  for (const char* name :
       {"motion0.dat", "motion1.dat", "motion2.dat", "torques.dat", "zmp.dat", "support.dat"})
    EXPECT_TRUE(fs::is_regular_file(dir.path / "clip.plots" / name)) << name;
  // The only moving joint is the elbow: the only panel.
  ASSERT_EQ(result.data.joints.size(), 1u);
  EXPECT_EQ(result.data.joints[0], robot().model.joint_index("RARM_JOINT3"));
  EXPECT_EQ(read_table(read_text(dir.path / "clip.plots" / "motion1.dat")).size(), 61u);

  options.auto_compare = false;
  const auto alone = pipeline::plot_motion(robot().model, robot().feet, dir.path / "clip.pos", {}, options);
  EXPECT_EQ(alone.labels, (std::vector<std::string>{"clip"}));
}

TEST(Plot, GnuplotDrawsPngAndSvg) {
  MIMIC_REQUIRE_TOOL("gnuplot", "gnuplot-nox");
  const TempDir dir("draw");
  // A quote and a space in the name: labels are escaped, file names never reach the script.
  const fs::path motion = dir.path / "it's a clip.pos";
  io::write_motion(io::motion_base(motion), still_motion(0.3, 0.2));
  io::write_motion(dir.path / "it's a clip.original", still_motion(0.2, 0.1));
  for (const auto format : {pipeline::PlotFormat::kPng, pipeline::PlotFormat::kSvg}) {
    pipeline::PlotOptions options;
    options.format = format;
    const auto result = pipeline::plot_motion(robot().model, robot().feet, motion, {}, options);
    ASSERT_EQ(result.figures.size(), 3u);
    for (const auto& figure : result.figures) {
      const std::string bytes = read_text(figure);
      // A drawn figure, not an empty or truncated file: measured 23 kB (joints.svg) to 135 kB
      // (torques.svg); 15 kB leaves a third for other gnuplot versions' encoders.
      ASSERT_GT(bytes.size(), 15000u) << figure;
      if (format == pipeline::PlotFormat::kPng) {
        EXPECT_EQ(bytes.substr(0, 4), "\x89PNG") << figure;
        EXPECT_EQ(figure.extension(), ".png");
      } else {
        EXPECT_TRUE(bytes.rfind("<?xml", 0) == 0 || bytes.rfind("<svg", 0) == 0) << figure;
        EXPECT_NE(bytes.find("<svg"), std::string::npos);
        if (figure.stem() == "joints") {  // the legend, quote and all
          EXPECT_NE(bytes.find("it's a clip.original"), std::string::npos);
        }
        EXPECT_EQ(figure.extension(), ".svg");
      }
    }
  }
  // No temporaries left behind.
  for (const auto& entry : fs::directory_iterator(dir.path / "it's a clip.plots"))
    EXPECT_NE(entry.path().filename().string().rfind(".", 0), 0u) << entry.path();
}

TEST(Plot, GnuplotDrawsTheBarWalkWithItsPayload) {
  MIMIC_REQUIRE_TOOL("gnuplot", "gnuplot-nox");
  const TempDir dir("walk");
  const io::JobConfig job = io::load_job(test::source_dir() / "config" / "walk" / "bar_walk.yaml");
  ASSERT_TRUE(job.payload.has_value());
  const model::Model bare = pipeline::load_robot(job.robot).model;
  const pipeline::Robot r = pipeline::load_robot(job.robot, job.payload);
  pipeline::PlotOptions options;
  options.output_dir = dir.path / "plots";
  options.geometry.collision = r.collision;
  const auto result = pipeline::plot_motion(r.model, r.feet, walk_motion(), job.contacts, options);
  // joints, torques, zmp and geometry.
  ASSERT_EQ(result.figures.size(), 4u);
  EXPECT_EQ(result.figures.back().filename(), "geometry.png");
  for (const auto& figure : result.figures) EXPECT_EQ(read_text(figure).substr(0, 4), "\x89PNG") << figure;
  // The bar (0.7 kg, 0.65 m beyond the right gripper) loads the right shoulder pitch.
  const io::MotionFiles files = io::read_motion(walk_motion());
  const auto bare_data =
      pipeline::compute_plot_data(bare, r.feet, {"walk", walk_motion(), files}, {}, {}, {});
  // About m g times its lever arm: 0.7 kg x 9.81 m/s^2 x ~1 m; measured 6.351 N m. 0.05 N m is 7 mm of
  // lever (or 5 g of mass): a payload on the wrong frame or with a wrong offset moves it by more.
  const int shoulder = r.model.joint_index("RARM_JOINT0");
  const double change =
      (result.data.torques.row(shoulder) - bare_data.torques.row(shoulder)).cwiseAbs().maxCoeff();
  EXPECT_NEAR(change, 6.351, 0.05);
  // The walk's ZMP stays inside its support polygons, beyond the 2 cm margin the walking pattern keeps:
  // measured at least 0.0649 m; 6 cm catches the ZMP or a polygon shifted by 5 mm.
  for (const double m : result.data.margin) EXPECT_GT(m, 0.06);
}

}  // namespace
