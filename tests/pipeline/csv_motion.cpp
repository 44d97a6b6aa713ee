// CSV motions for a robot: the rate the file lacks, resampling on writing (poses kept at the times the
// two rates share), reading back with v, a and phases.
#include "mimic/pipeline/csv_motion.hpp"

#include <gtest/gtest.h>

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "support/temp_path.hpp"

namespace {

using namespace mimic;

const pipeline::Robot& hrp2() {
  static const pipeline::Robot robot = pipeline::load_robot(io::RobotSettings{});
  return robot;
}

// The shipped planned walk (200 Hz, 1741 samples, a turning waist) as the stages read it.
const model::SampledMotion& planned_walk() {
  static const model::SampledMotion motion = pipeline::read_sampled_motion(
      hrp2(), std::string(MIMIC_SOURCE_DIR) + "/data/motions/walk_bar_planned.pos");
  return motion;
}

Eigen::MatrixXd parsed(const pipeline::CsvOutput& output) {
  return io::parse_csv_motion(output.text, "x.csv", hrp2().model, hrp2().description.joint_order);
}

// Sample k of `a` and column m of `b` are the same pose: positions and joints to the printed digits (the
// shortest round-trip text: exactly), the orientation to rounding.
void expect_same_pose(const Eigen::VectorXd& a, const Eigen::VectorXd& b, const std::string& where) {
  const model::Model& model = hrp2().model;
  const spatial::SE3 pa = model::base_pose(model, a), pb = model::base_pose(model, b);
  EXPECT_LT((pa.p - pb.p).cwiseAbs().maxCoeff(), 1e-15) << where;
  // As in tests/io/csv_motion.cpp: the quaternion passes through a rotation matrix on reading (a few ulps).
  EXPECT_LT((pa.R - pb.R).cwiseAbs().maxCoeff(), 4e-15) << where;
  EXPECT_LT((a.tail(model.nj) - b.tail(model.nj)).cwiseAbs().maxCoeff(), 1e-15) << where;
}

TEST(CsvOutput, AtTheMotionsOwnRateEveryPoseIsWrittenUnchanged) {
  const model::SampledMotion& walk = planned_walk();
  const pipeline::CsvOutput output =
      pipeline::csv_output(hrp2().model, hrp2().description.joint_order, walk, std::nullopt, "x.csv");
  EXPECT_FALSE(output.resampled);
  EXPECT_DOUBLE_EQ(output.rate, 200.0);
  ASSERT_EQ(output.rows, walk.size());
  const Eigen::MatrixXd q = parsed(output);
  for (Eigen::Index k = 0; k < walk.size(); k += 97)
    expect_same_pose(walk.q.col(k), q.col(k), "sample " + std::to_string(k));
  // Asking for 200 Hz is the same.
  EXPECT_EQ(pipeline::csv_output(hrp2().model, hrp2().description.joint_order, walk, 200.0, "x.csv").text,
            output.text);
}

TEST(CsvOutput, ResamplingKeepsThePosesAtCoincidingTimes) {
  const model::SampledMotion& walk = planned_walk();
  const auto& joints = hrp2().description.joint_order;
  const pipeline::CsvOutput at50 = pipeline::csv_output(hrp2().model, joints, walk, 50.0, "x.csv");
  EXPECT_TRUE(at50.resampled);
  // 8.7 s: 436 rows at 50 Hz (t = 0, 0.02, ... 8.7), every fourth 200 Hz sample.
  ASSERT_EQ(at50.rows, 436);
  const Eigen::MatrixXd q50 = parsed(at50);
  for (Eigen::Index m = 0; m < q50.cols(); ++m)
    expect_same_pose(walk.q.col(4 * m), q50.col(m), "row " + std::to_string(m));

  // 50 Hz read back, written at 200 Hz and at 50 Hz again: the 50 Hz rows come back.
  const model::SampledMotion read50 = [&] {
    const auto path = test::unique_temp_path("csv50", ".csv");
    write_csv_output(path, at50);
    auto motion = pipeline::read_sampled_motion(hrp2(), path, {}, 50.0);
    std::filesystem::remove(path);
    return motion;
  }();
  ASSERT_EQ(read50.size(), 436);
  EXPECT_DOUBLE_EQ(read50.times[1], 0.02);
  EXPECT_EQ(read50.v.cols(), 436);
  EXPECT_EQ(read50.phases.size(), 436u);
  const pipeline::CsvOutput at200 = pipeline::csv_output(hrp2().model, joints, read50, 200.0, "x.csv");
  ASSERT_EQ(at200.rows, 1741);
  const Eigen::MatrixXd q200 = parsed(at200);
  for (Eigen::Index m = 0; m < q50.cols(); ++m)
    expect_same_pose(q50.col(m), q200.col(4 * m), "row " + std::to_string(4 * m));
  // And the 200 Hz rows at 50 Hz: the 50 Hz rows again. (Times k / 200, as a CSV read at 200 Hz has them:
  // 0.005 * k is not always the double nearest to k / 200, and a time a rounding short of a row's would
  // interpolate 1e-15 away from it.)
  model::SampledMotion again;
  again.q = q200;
  for (Eigen::Index k = 0; k < q200.cols(); ++k) again.times.push_back(static_cast<double>(k) / 200.0);
  const Eigen::MatrixXd back = parsed(pipeline::csv_output(hrp2().model, joints, again, 50.0, "x.csv"));
  ASSERT_EQ(back.cols(), q50.cols());
  for (Eigen::Index m = 0; m < q50.cols(); ++m)
    expect_same_pose(q50.col(m), back.col(m), "row " + std::to_string(m));
}

TEST(CsvOutput, ReadingACsvWithoutARateSaysHowToGiveIt) {
  try {
    pipeline::read_sampled_motion(hrp2(), "some/x.csv");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "some/x.csv: a CSV motion carries no time; give its sample rate (--rate HZ, or csv_rate in the job)");
  }
}

TEST(CsvOutput, SummarySaysWhatWasWritten) {
  const pipeline::CsvOutput at50 =
      pipeline::csv_output(hrp2().model, hrp2().description.joint_order, planned_walk(), 50.0, "x.csv");
  EXPECT_EQ(
      pipeline::csv_output_summary("out/x.csv", at50),
      "out/x.csv: 436 rows at 50 Hz (resampled from 200 Hz); base x y z, quaternion x y z w, 30 joints; no "
      ".waist or .zmp (the ZMP is in the JSON report and `mimic check`)");
}

}  // namespace
