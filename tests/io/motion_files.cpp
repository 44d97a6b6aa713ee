// X.pos + X.waist / X.hip + X.zmp as one motion: loading like hrpsys, writing all-or-nothing.
#include "mimic/io/motion_files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>

#include "io/io_test_util.hpp"
#include "mimic/core/error.hpp"

namespace mimic::io {
namespace {

using test::fresh_dir;
using test::listing;
using test::slurp;
using test::spit;
using Names = std::vector<std::string>;

MotionFiles sample_motion(int samples) {
  MotionFiles motion;
  for (int k = 0; k < samples; ++k) motion.pos.times.push_back(k * 0.005);
  motion.pos.angles = Eigen::MatrixXd::Random(samples, default_pos_layout().joint_columns());
  motion.waist = WaistSequence{motion.pos.times, Eigen::MatrixXd::Random(samples, 3),
                               0.2 * Eigen::MatrixXd::Random(samples, 3)};
  motion.zmp = ZmpSequence{motion.pos.times, Eigen::MatrixXd::Random(samples, 3)};
  return motion;
}

std::string input_error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InputError";
  return "";
}

TEST(MotionBase, StripsOnlySequenceExtensions) {
  EXPECT_EQ(motion_base("out/boxing.pos"), "out/boxing");
  EXPECT_EQ(motion_base("out/boxing.zmp"), "out/boxing");
  EXPECT_EQ(motion_base("out/boxing.waist"), "out/boxing");
  EXPECT_EQ(motion_base("out/boxing"), "out/boxing");
  EXPECT_EQ(motion_base("out/boxing.v2"), "out/boxing.v2");
  EXPECT_EQ(motion_file("out/boxing.v2", ".zmp"), "out/boxing.v2.zmp");
}

TEST(Motion, WriteThenReadRoundTrips) {
  const auto dir = fresh_dir("motion_round_trip");
  const MotionFiles motion = sample_motion(20);
  write_motion(dir / "boxing.pos", motion);
  EXPECT_EQ(listing(dir), (Names{"boxing.pos", "boxing.waist", "boxing.zmp"}));

  const MotionFiles back = read_motion(dir / "boxing");
  EXPECT_EQ(back.pos.angles, motion.pos.angles);
  ASSERT_TRUE(back.waist && back.zmp);
  EXPECT_FALSE(back.hip);
  EXPECT_EQ(back.waist->position, motion.waist->position);
  EXPECT_EQ(back.waist->rpy, motion.waist->rpy);
  EXPECT_EQ(back.zmp->zmp, motion.zmp->zmp);
  for (std::size_t k = 0; k < back.pos.times.size(); ++k) {
    // k * 0.005 prints as its nanosecond-grid decimal, read back as the nearest double: within an ulp of
    // the computed product (1.4e-17 here; measured 0). A time off the grid would be off by >= 1e-10.
    EXPECT_NEAR(back.pos.times[k], motion.pos.times[k], 1e-15);
    EXPECT_EQ(back.zmp->times[k], back.pos.times[k]);
  }
}

TEST(Motion, FortyColumnsAndHip) {
  const auto dir = fresh_dir("motion_hip");
  MotionFiles motion = sample_motion(5);
  motion.hip = HipSequence{motion.pos.times, motion.waist->rpy};
  motion.waist.reset();
  motion.zmp.reset();
  write_motion(dir / "walk", motion, PosWriteOptions::with_columns(default_pos_layout(), 40));
  EXPECT_EQ(listing(dir), (Names{"walk.hip", "walk.pos"}));
  const auto back = read_motion(dir / "walk.pos");
  EXPECT_EQ(back.pos.extra.cols(), 10);
  ASSERT_TRUE(back.hip);
  EXPECT_FALSE(back.waist || back.zmp);
  EXPECT_EQ(back.hip->rpy, motion.hip->rpy);
  EXPECT_THROW(read_motion(dir / "walk", PosColumns::kJoints), InputError);
}

TEST(Motion, HipWinsOverWaistLikeHrpsys) {
  const auto dir = fresh_dir("motion_hip_wins");
  std::string pos = "0";
  for (int j = 0; j < 30; ++j) pos += " 0";
  spit(dir / "m.pos", pos + "\n");
  spit(dir / "m.waist", "0 0 0 0.6 0 0 0\n");
  spit(dir / "m.hip", "0 0 0 1.5\n");
  const auto motion = read_motion(dir / "m");
  ASSERT_TRUE(motion.hip);
  EXPECT_FALSE(motion.waist);
  EXPECT_EQ(motion.hip->rpy(0, 2), 1.5);
}

TEST(Motion, CompanionFilesMustShareThePosTimes) {
  const auto dir = fresh_dir("motion_times");
  std::string pos;
  for (const char* t : {"0", "0.005", "0.01"}) {
    pos += t;
    for (int j = 0; j < 30; ++j) pos += " 0.1";
    pos += "\n";
  }
  spit(dir / "m.pos", pos);
  spit(dir / "m.zmp", "0 0 0 -0.6\n\n0.005 0 0 -0.6\n0.0150 0 0 -0.6\n");
  EXPECT_EQ(input_error_of([&] { read_motion(dir / "m"); }),
            (dir / "m.zmp").string() + ":line 4: time 0.015 differs from " + (dir / "m.pos").string() +
                "'s 0.01 for sample 3; every file of a motion needs the same times");
  spit(dir / "m.zmp", "0 0 0 -0.6\n0.005 0 0 -0.6\n");
  EXPECT_EQ(input_error_of([&] { read_motion(dir / "m"); }),
            (dir / "m.zmp").string() + ": 2 samples, but " + (dir / "m.pos").string() +
                " has 3; every file of a motion needs the same times");
  // Seven-digit times, as some writers produce, are within the tolerance.
  spit(dir / "m.zmp", "0 0 0 -0.6\n5.000000e-03 0 0 -0.6\n1.0000001e-02 0 0 -0.6\n");
  EXPECT_TRUE(read_motion(dir / "m").zmp);
  // A bad companion file is reported with its own name and line.
  spit(dir / "m.waist", "0 0 0 0.6 0 0 0\n0.005 0 0 0.6 0 0\n");
  EXPECT_EQ(input_error_of([&] { read_motion(dir / "m"); }),
            (dir / "m.waist").string() + ":line 2: expected 7 fields, as on line 1, found 6");
}

TEST(Motion, MissingPosIsAnInputError) {
  const auto dir = fresh_dir("motion_missing");
  spit(dir / "m.zmp", "0 0 0 0\n");
  EXPECT_EQ(input_error_of([&] { read_motion(dir / "m"); }),
            (dir / "m.pos").string() + ": cannot open the file (does it exist?)");
}

TEST(Motion, AFailingWriteLeavesNothingAndKeepsTheOldFiles) {
  const auto dir = fresh_dir("motion_atomic");
  MotionFiles bad = sample_motion(4);
  bad.zmp->zmp(3, 1) = std::nan("");
  EXPECT_THROW(write_motion(dir / "m", bad), OutputError);
  EXPECT_TRUE(listing(dir).empty());

  const MotionFiles good = sample_motion(4);
  write_motion(dir / "m", good);
  const std::string pos_before = slurp(dir / "m.pos");
  const std::string waist_before = slurp(dir / "m.waist");
  EXPECT_THROW(write_motion(dir / "m", bad), OutputError);
  EXPECT_EQ(listing(dir), (Names{"m.pos", "m.waist", "m.zmp"}));
  EXPECT_EQ(slurp(dir / "m.pos"), pos_before);
  EXPECT_EQ(slurp(dir / "m.waist"), waist_before);

  // Inconsistent bundles are refused before anything is written.
  MotionFiles both = sample_motion(4);
  both.hip = HipSequence{both.pos.times, both.waist->rpy};
  EXPECT_THROW(write_motion(dir / "n", both), std::invalid_argument);
  MotionFiles shifted = sample_motion(4);
  shifted.zmp->times[2] += 0.001;
  EXPECT_THROW(write_motion(dir / "n", shifted), std::invalid_argument);
  EXPECT_EQ(listing(dir), (Names{"m.pos", "m.waist", "m.zmp"}));

  EXPECT_THROW(write_motion(dir / "m.pos" / "m", good), OutputError);
  EXPECT_EQ(listing(dir), (Names{"m.pos", "m.waist", "m.zmp"}));
}

TEST(Motion, StaleCompanionsFromAnEarlierRunAreRemoved) {
  const auto dir = fresh_dir("motion_stale");
  spit(dir / "m.hip", "0 0 0 0\n");      // would override the new m.waist in hrpsys
  spit(dir / "m.gsens", "0 0 0 9.8\n");  // not ours: left alone
  MotionFiles motion = sample_motion(3);
  motion.zmp.reset();
  spit(dir / "m.zmp", "0 0 0 0\n");
  write_motion(dir / "m", motion);
  EXPECT_EQ(listing(dir), (Names{"m.gsens", "m.pos", "m.waist"}));
}

}  // namespace
}  // namespace mimic::io
