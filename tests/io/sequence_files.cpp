// .pos / .waist / .hip / .zmp reading and writing, against the hrpsys format (hrp2.md section 6).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

#include "io/io_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/sequence.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::io {
namespace {

using test::fresh_dir;
using test::listing;
using test::slurp;
using test::spit;

// A .pos line: time followed by `columns` values value0, value0 + 0.01, ...
std::string pos_line(double time, int columns, double value0 = 0.1) {
  std::string line = std::to_string(time);
  for (int j = 0; j < columns; ++j) {
    line += ' ';
    line += std::to_string(value0 + 0.01 * j);
  }
  line += '\n';
  return line;
}

PosSequence random_pos(int samples, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(-2.5, 2.5);
  PosSequence pos;
  const int joints = default_pos_layout().joint_columns();
  pos.angles.resize(samples, joints);
  for (int k = 0; k < samples; ++k) {
    pos.times.push_back(k * kHrp2SamplePeriod);
    for (int j = 0; j < joints; ++j) pos.angles(k, j) = angle(rng);
  }
  return pos;
}

// Asserts that `call` throws InputError whose message is exactly `message`.
template <class Call>
void expect_input_error(Call call, const std::string& message) {
  try {
    call();
    FAIL() << "expected InputError: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

template <class Call>
std::string output_error_of(Call call) {
  try {
    call();
  } catch (const OutputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected OutputError";
  return "";
}

// ---------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------

TEST(PosRead, ThirtyColumns) {
  const auto pos = parse_pos(pos_line(0.0, 30) + pos_line(0.005, 30, 0.2), "a.pos");
  ASSERT_EQ(pos.size(), 2);
  EXPECT_EQ(pos.times, (std::vector<double>{0.0, 0.005}));
  EXPECT_EQ(pos.angles.rows(), 2);
  EXPECT_EQ(pos.angles.cols(), 30);
  EXPECT_EQ(pos.extra.rows(), 2);
  EXPECT_EQ(pos.extra.cols(), 0);
  EXPECT_DOUBLE_EQ(pos.angles(0, 0), 0.1);
  EXPECT_DOUBLE_EQ(pos.angles(0, 29), 0.39);
  EXPECT_DOUBLE_EQ(pos.angles(1, 5), 0.25);
}

TEST(PosRead, FortyColumnsAreDetectedAndKeepTheHandValues) {
  const auto pos = parse_pos(pos_line(0.0, 40) + pos_line(0.005, 40), "a.pos");
  EXPECT_EQ(pos.angles.cols(), 30);
  ASSERT_EQ(pos.extra.cols(), 10);
  EXPECT_DOUBLE_EQ(pos.angles(1, 29), 0.39);
  EXPECT_DOUBLE_EQ(pos.extra(1, 0), 0.40);
  EXPECT_DOUBLE_EQ(pos.extra(1, 9), 0.49);
}

TEST(PosRead, ToldTheColumnCount) {
  EXPECT_EQ(parse_pos(pos_line(0, 40), "a.pos", PosColumns::kWide).extra.cols(), 10);
  EXPECT_EQ(parse_pos(pos_line(0, 30), "a.pos", PosColumns::kJoints).extra.cols(), 0);
  expect_input_error([] { parse_pos(pos_line(0, 40), "a.pos", PosColumns::kJoints); },
                     "a.pos:line 1: expected 31 fields (time + 30 joint angles), found 41");
  expect_input_error([] { parse_pos(pos_line(0, 30), "a.pos", PosColumns::kWide); },
                     "a.pos:line 1: expected 41 fields (time + 30 joint angles + 10 extra columns "
                     "RHAND_JOINT0 .. LHAND_JOINT4), found 31");
}

TEST(PosRead, ToleratesBlankLinesCrlfTabsTrailingSpacesAndNoFinalNewline) {
  std::string text = "\n  \r\n" + pos_line(0, 30);
  text.pop_back();
  text += "   \t\r\n\n";
  std::string second = "+0.005";
  for (int j = 0; j < 30; ++j) second += (j % 2 ? "\t" : "  ") + std::string("1.5e-1");
  text += second;  // no final newline
  const auto pos = parse_pos(text, "a.pos");
  ASSERT_EQ(pos.size(), 2);
  EXPECT_DOUBLE_EQ(pos.times[1], 0.005);
  EXPECT_DOUBLE_EQ(pos.angles(1, 17), 0.15);
}

TEST(PosRead, WaistHipZmpColumns) {
  const auto waist = parse_waist("0 0.01 0.02 0.6487 0.1 0.2 0.3\n0.005 0 0 0.65 0 0 -3\n", "a.waist");
  ASSERT_EQ(waist.size(), 2);
  EXPECT_EQ(waist.position.row(0), Eigen::RowVector3d(0.01, 0.02, 0.6487));
  EXPECT_EQ(waist.rpy.row(0), Eigen::RowVector3d(0.1, 0.2, 0.3));
  EXPECT_EQ(waist.rpy(1, 2), -3.0);
  const auto hip = parse_hip("0 0.1 0.2 0.3\n", "a.hip");
  EXPECT_EQ(hip.rpy.row(0), Eigen::RowVector3d(0.1, 0.2, 0.3));
  const auto zmp = parse_zmp("0 0.01 0 -0.6487\n", "a.zmp");
  EXPECT_EQ(zmp.zmp.row(0), Eigen::RowVector3d(0.01, 0, -0.6487));
  expect_input_error([] { parse_waist("0 0.1 0.2 0.3\n", "a.waist"); },
                     "a.waist:line 1: expected 7 fields (time + x y z roll pitch yaw), found 4");
  expect_input_error([] { parse_zmp("0 1 2 3 4\n", "a.zmp"); },
                     "a.zmp:line 1: expected 4 fields (time + x y z), found 5");
}

// Every rejected input, with the line it is reported on (blank lines count: they are physical lines).
TEST(PosRead, ErrorsNameTheFileTheLineAndWhatWasExpected) {
  const std::string good = pos_line(0, 30) + "\n" + pos_line(0.005, 30);  // lines 1-3
  const auto with_line4 = [&](const std::string& line4) { return [=] { parse_pos(good + line4, "m.pos"); }; };

  std::string nan_line = pos_line(0.01, 30);
  nan_line.replace(nan_line.find(" 0.110000"), 9, " nan");
  expect_input_error(with_line4(nan_line), "m.pos:line 4: expected a finite number as field 3, found 'nan'");

  std::string inf_line = pos_line(0.01, 30);
  inf_line.replace(0, inf_line.find(' '), "-Inf");
  expect_input_error(with_line4(inf_line),
                     "m.pos:line 4: expected a finite number as the time (field 1), found '-Inf'");

  expect_input_error(with_line4(pos_line(0.01, 29)),
                     "m.pos:line 4: expected 31 fields, as on line 1, found 30");
  expect_input_error(with_line4(pos_line(0.01, 40)),
                     "m.pos:line 4: expected 31 fields, as on line 1, found 41");
  expect_input_error(with_line4(pos_line(0.005, 30)),
                     "m.pos:line 4: time 0.005 is not after the previous sample's time 0.005 (line 3); "
                     "times must increase strictly");
  expect_input_error(with_line4(pos_line(0.001, 30)),
                     "m.pos:line 4: time 0.001 is not after the previous sample's time 0.005 (line 3); "
                     "times must increase strictly");

  std::string word_line = pos_line(0.01, 30);
  word_line.replace(word_line.rfind(' '), std::string::npos, " 0.3x\n");
  expect_input_error(with_line4(word_line), "m.pos:line 4: expected a number as field 31, found '0.3x'");

  std::string comma_line = pos_line(0.01, 30);
  comma_line.replace(comma_line.find(' '), 1, ",");
  expect_input_error(
      with_line4(comma_line),
      "m.pos:line 4: expected a number as the time (field 1), found '0.010000,0.100000' (fields are "
      "separated by spaces or tabs, not commas)");
  expect_input_error(
      with_line4("0.01 0.1,0.2\n"),
      "m.pos:line 4: expected a number as field 2, found '0.1,0.2' (fields are separated by spaces or "
      "tabs, not commas)");
  expect_input_error(
      with_line4(pos_line(0.01, 30).insert(8, "   # note ")),
      "m.pos:line 4: comments are not allowed: hrpsys's SequencePlayer reads every token as a number");

  std::string huge_line = pos_line(0.01, 30);
  huge_line.replace(huge_line.find(' '), 1, " 1e999 ");
  huge_line.erase(huge_line.rfind(' '));
  huge_line += "\n";
  expect_input_error(
      with_line4(huge_line),
      "m.pos:line 4: expected a number within the range of a double as field 2, found '1e999'");

  expect_input_error(
      with_line4("# generated by mimic\n"),
      "m.pos:line 4: comments are not allowed: hrpsys's SequencePlayer reads every token as a number");
  expect_input_error(
      with_line4(pos_line(0.01, 30) + "% end\n"),
      "m.pos:line 5: comments are not allowed: hrpsys's SequencePlayer reads every token as a number");
}

TEST(PosRead, HeaderCommaAndEmptyFiles) {
  std::string header = "time";
  for (int j = 0; j < 30; ++j) {
    header += " q";
    header += std::to_string(j);
  }
  expect_input_error(
      [&] { parse_pos(header + "\n" + pos_line(0, 30), "h.pos"); },
      "h.pos:line 1: expected a number as the time (field 1), found 'time' (header lines are not allowed)");
  std::string csv = "0";
  for (int j = 0; j < 30; ++j) csv += ",0.1";
  csv += " ";
  for (int j = 0; j < 30; ++j) csv += " 0.1";
  expect_input_error([&] { parse_pos(csv, "c.pos"); },
                     "c.pos:line 1: expected a number as the time (field 1), found "
                     "'0,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0....' "
                     "(fields are separated by spaces or tabs, not commas)");
  expect_input_error(
      [] { parse_pos("", "e.pos"); },
      "e.pos: no samples (the file is empty); expected 31 fields (time + 30 joint angles) or 41 fields "
      "(time + 30 joint angles + 10 extra columns RHAND_JOINT0 .. LHAND_JOINT4) per line");
  expect_input_error([] { parse_zmp("\n \r\n\t\n", "e.zmp"); },
                     "e.zmp: no samples (the file is empty); expected 4 fields (time + x y z) per line");
}

TEST(PosRead, MissingFileOrDirectory) {
  const auto dir = fresh_dir("missing");
  expect_input_error([&] { read_pos(dir / "none.pos"); },
                     (dir / "none.pos").string() + ": cannot open the file (does it exist?)");
  expect_input_error([&] { read_pos(dir); }, dir.string() + ": is a directory, expected a file");
}

// ---------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------

TEST(PosWrite, TextIsCleanAndRoundTripsExactly) {
  PosSequence pos = random_pos(300, 7);
  pos.angles(0, 0) = 0.1;
  pos.angles(0, 1) = -0.0;
  pos.angles(0, 2) = 1e-10;
  pos.angles(0, 3) = -0.6487;
  const std::string text = format_pos(pos, "r.pos");
  EXPECT_TRUE(text.starts_with("0 0.1 0 1e-10 -0.6487 ")) << text.substr(0, 80);
  // k * 0.005 is not exact in binary; the file still says what a person would write.
  EXPECT_NE(text.find("\n0.005 "), std::string::npos);
  EXPECT_NE(text.find("\n0.015 "), std::string::npos);
  EXPECT_NE(text.find("\n1.495 "), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 300);

  const auto back = parse_pos(text, "r.pos");
  ASSERT_EQ(back.size(), 300);
  // Times print on the nanosecond grid and read back as the nearest double, within an ulp of the computed
  // k * 0.005 (2.2e-16 at 1.495 s; measured 2.2e-16). A time off the grid would be off by >= 1e-10.
  for (int k = 0; k < 300; ++k) EXPECT_NEAR(back.times[k], pos.times[k], 1e-15);
  EXPECT_TRUE((back.angles.array() == pos.angles.array()).all()) << "angles must round-trip bit for bit";
  EXPECT_EQ(back.extra.cols(), 0);
}

TEST(PosWrite, AccumulatedTimesPrintOnTheNanosecondGrid) {
  PosSequence pos = random_pos(3, 1);
  double t = 0;
  for (auto& time : pos.times) {
    time = t;
    t += 0.1;  // 0, 0.1, 0.2, 0.30000000000000004
  }
  pos.times.push_back(t);
  pos.angles.conservativeResize(4, pos.angles.cols());
  pos.angles.row(3).setZero();
  const std::string text = format_pos(pos, "g.pos");
  EXPECT_NE(text.find("\n0.3 "), std::string::npos) << text;
}

TEST(PosWrite, FortyColumns) {
  PosSequence pos = random_pos(4, 3);
  PosWriteOptions options = PosWriteOptions::with_columns(default_pos_layout(), 40);
  options.extra_values.assign(10, 0.174533);
  auto back = parse_pos(format_pos(pos, "f.pos", options), "f.pos");
  ASSERT_EQ(back.extra.cols(), 10);
  EXPECT_TRUE((back.extra.array() == 0.174533).all());
  EXPECT_TRUE(back.angles == pos.angles);

  // Default hand values are zeros.
  options.extra_values.clear();
  back = parse_pos(format_pos(pos, "f.pos", options), "f.pos");
  EXPECT_TRUE(back.extra.isZero(0));

  // Hands read from a 40-column file are written back, not replaced by the option.
  back.extra(2, 7) = -0.5;
  options.extra_values.assign(10, 9.0);
  const auto again = parse_pos(format_pos(back, "f.pos", options), "f.pos");
  EXPECT_EQ(again.extra, back.extra);

  // Writing 30 columns drops them.
  EXPECT_EQ(parse_pos(format_pos(back, "f.pos"), "f.pos").extra.cols(), 0);

  // One value per extra column, and only the layout's column counts.
  options.extra_values.assign(9, 0.0);
  EXPECT_THROW(format_pos(pos, "f.pos", options), std::invalid_argument);
  EXPECT_THROW(PosWriteOptions::with_columns(default_pos_layout(), 35), std::invalid_argument);
  EXPECT_FALSE(PosWriteOptions::with_columns(default_pos_layout(), 30).wide);
}

// The layout comes from a robot description: another robot's joints and extra columns are read, named in
// errors and written as its description says.
TEST(PosLayout, AnotherRobotsColumns) {
  model::RobotDescription description;
  description.joint_order = {"hip", "knee", "ankle"};
  description.extra_columns = {"grip"};
  const PosLayout layout = PosLayout::of(description);
  EXPECT_EQ(layout.choices(), "3 or 4");
  EXPECT_TRUE(layout.accepts(4));
  EXPECT_FALSE(layout.accepts(30));

  const auto pos = parse_pos(pos_line(0, 4) + pos_line(0.005, 4), "o.pos", PosColumns::kAuto, layout);
  EXPECT_EQ(pos.angles.cols(), 3);
  EXPECT_EQ(pos.extra.cols(), 1);
  expect_input_error(
      [&] { parse_pos(pos_line(0, 30), "o.pos", PosColumns::kAuto, layout); },
      "o.pos:line 1: expected 4 fields (time + 3 joint angles) or 5 fields (time + 3 joint angles "
      "+ 1 extra column grip), found 31");

  PosSequence nan = pos;
  nan.angles(1, 1) = std::nan("");
  EXPECT_EQ(output_error_of([&] { format_pos(nan, "o.pos", {}, layout); }),
            "o.pos: sample 2 (t = 0.005 s): knee is NaN; refusing to write a value hrpsys cannot read");
  PosSequence joints_only = pos;
  joints_only.extra.resize(2, 0);
  PosWriteOptions options = PosWriteOptions::with_columns(layout, 4);
  options.extra_values = {0.25};
  EXPECT_EQ(format_pos(joints_only, "o.pos", options, layout),
            "0 0.1 0.11 0.12 0.25\n0.005 0.1 0.11 0.12 0.25\n");
  EXPECT_EQ(format_pos(joints_only, "o.pos", {}, layout), "0 0.1 0.11 0.12\n0.005 0.1 0.11 0.12\n");
}

TEST(PosWrite, RefusesWhatHrpsysCannotPlay) {
  PosSequence pos = random_pos(5, 2);
  pos.angles(3, 4) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(
      output_error_of([&] { format_pos(pos, "n.pos"); }),
      "n.pos: sample 4 (t = 0.015 s): RLEG_JOINT4 is NaN; refusing to write a value hrpsys cannot read");
  pos.angles(3, 4) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(
      output_error_of([&] { format_pos(pos, "n.pos"); }),
      "n.pos: sample 4 (t = 0.015 s): RLEG_JOINT4 is infinite; refusing to write a value hrpsys cannot read");
  pos.angles(3, 4) = 0;
  pos.times[2] = pos.times[1];
  EXPECT_EQ(
      output_error_of([&] { format_pos(pos, "n.pos"); }),
      "n.pos: sample 3 (t = 0.005 s) is not after the previous sample (t = 0.005 s); times must increase "
      "strictly");
  EXPECT_EQ(output_error_of([&] { format_pos(PosSequence{}, "n.pos"); }), "n.pos: no samples to write");

  PosSequence mismatched = random_pos(5, 2);
  mismatched.times.pop_back();
  EXPECT_THROW(format_pos(mismatched, "n.pos"), std::invalid_argument);

  // Hand values go through the same checks.
  PosSequence with_hands = random_pos(2, 2);
  with_hands.extra = Eigen::MatrixXd::Zero(2, 10);
  with_hands.extra(1, 9) = std::nan("");
  const PosWriteOptions forty = PosWriteOptions::with_columns(default_pos_layout(), 40);
  EXPECT_EQ(
      output_error_of([&] { format_pos(with_hands, "n.pos", forty); }),
      "n.pos: sample 2 (t = 0.005 s): LHAND_JOINT4 is NaN; refusing to write a value hrpsys cannot read");
}

TEST(WaistWrite, RoundTripAndAngleJumps) {
  WaistSequence waist;
  waist.times = {0, 0.005, 0.01};
  waist.position = Eigen::MatrixXd::Random(3, 3);
  waist.rpy.resize(3, 3);
  waist.rpy << 0.1, 0.2, 3.1, 0.1, 0.2, -3.1, 0.1, 0.2, -3.0;
  EXPECT_EQ(
      output_error_of([&] { format_waist(waist, "w.waist"); }),
      "w.waist: sample 2 (t = 0.005 s): yaw jumps by -6.2 rad; hrpsys interpolates each angle linearly, "
      "so unwrap the angles first (mimic::spatial::unwrap_angles)");
  spatial::unwrap_angles(waist.rpy);
  const auto back = parse_waist(format_waist(waist, "w.waist"), "w.waist");
  EXPECT_EQ(back.position, waist.position);
  EXPECT_EQ(back.rpy, waist.rpy);
  // unwrap_angles adds 2 pi to -3.1 (measured equal to 2 pi - 3.1 to the bit); 1e-15 is two ulp of 3.18.
  EXPECT_NEAR(back.rpy(1, 2), 2 * std::numbers::pi - 3.1, 1e-15);

  HipSequence hip{{0, 1}, Eigen::MatrixXd::Zero(2, 3)};
  hip.rpy(1, 0) = -3.5;
  EXPECT_THROW(format_hip(hip, "h.hip"), OutputError);
  hip.rpy(1, 0) = -3.0;
  EXPECT_EQ(parse_hip(format_hip(hip, "h.hip"), "h.hip").rpy, hip.rpy);

  ZmpSequence zmp{{0, 1}, Eigen::MatrixXd::Zero(2, 3)};
  zmp.zmp(1, 2) = -0.6487;
  EXPECT_EQ(format_zmp(zmp, "z.zmp"), "0 0 0 0\n1 0 0 -0.6487\n");
}

TEST(PosWrite, FileWriteIsAtomic) {
  const auto dir = fresh_dir("atomic_pos");
  PosSequence pos = random_pos(10, 4);
  write_pos(dir / "a.pos", pos);
  const std::string before = slurp(dir / "a.pos");
  EXPECT_EQ(read_pos(dir / "a.pos").angles, pos.angles);

  PosSequence bad = pos;
  bad.angles(9, 29) = std::nan("");
  EXPECT_THROW(write_pos(dir / "a.pos", bad), OutputError);
  EXPECT_EQ(slurp(dir / "a.pos"), before);
  EXPECT_THROW(write_pos(dir / "b.pos", bad), OutputError);
  EXPECT_EQ(listing(dir), std::vector<std::string>{"a.pos"});

  // Missing folders are made, but a folder that cannot exist (its parent is a file) is an error.
  EXPECT_THROW(write_pos(dir / "a.pos" / "c.pos", pos), OutputError);
  EXPECT_EQ(listing(dir), std::vector<std::string>{"a.pos"});
}

}  // namespace
}  // namespace mimic::io
