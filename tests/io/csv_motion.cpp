// CSV motions in the Unitree / LAFAN1 convention: round trip, header and headerless files, the one-line
// errors of bad headers, rows and quaternions, quaternion sign continuity.
#include "mimic/io/csv_motion.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"

namespace {

using namespace mimic;

struct Hrp2 {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  const model::Model& model = robot.model;
  const std::vector<std::string>& joints = robot.description.joint_order;

  static const Hrp2& instance() {
    static const Hrp2 r;
    return r;
  }
};

// `n` random configurations whose base quaternions have random signs (q and -q: the same orientation).
Eigen::MatrixXd random_motion(const model::Model& model, int n, unsigned seed) {
  std::mt19937 rng(seed);
  Eigen::MatrixXd q(model.nq, n);
  for (int k = 0; k < n; ++k) {
    Eigen::VectorXd c = model::random_configuration(model, rng);
    const spatial::SE3 base = model::base_pose(model, c);
    c = model::configuration(model, spatial::SE3(base.R, Eigen::Vector3d::Random()), c.tail(model.nj));
    q.col(k) = c;
  }
  return q;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<double> numbers_of(const std::string& line) {
  std::vector<double> values;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');) values.push_back(std::stod(field));
  return values;
}

// Same motion: positions and joints exactly (shortest round-trip text), the orientation to rounding.
void expect_same_motion(const model::Model& model, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  for (Eigen::Index k = 0; k < a.cols(); ++k) {
    const spatial::SE3 pa = model::base_pose(model, a.col(k)), pb = model::base_pose(model, b.col(k));
    EXPECT_EQ(pa.p, pb.p) << "row " << k;
    // The quaternion's digits are exact, but reading normalises it and passes it through a rotation
    // matrix (model::configuration takes an SE3): three conversions of a few ulps each, 1.3e-15 measured
    // over 50 random rows; 4e-15 is 18 ulps of 1, while a wrong sign or axis is off by O(1).
    EXPECT_LT((pa.R - pb.R).cwiseAbs().maxCoeff(), 4e-15) << "row " << k;
    EXPECT_EQ(a.col(k).tail(model.nj), b.col(k).tail(model.nj)) << "row " << k;
  }
}

std::string error_of(const std::string& text, const std::string& file = "m.csv") {
  const Hrp2& r = Hrp2::instance();
  try {
    io::parse_csv_motion(text, file, r.model, r.joints);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CsvMotion, HeaderNamesBaseThenTheDescriptionsJointOrder) {
  const Hrp2& r = Hrp2::instance();
  const std::string text = io::format_csv_motion(r.model, random_motion(r.model, 2, 1), r.joints, "m.csv");
  std::string header = "base_x,base_y,base_z,base_qx,base_qy,base_qz,base_qw";
  for (const auto& joint : r.joints) header += "," + joint;
  EXPECT_EQ(lines_of(text).front(), header);
  EXPECT_EQ(lines_of(text).size(), 3u);
  EXPECT_EQ(io::csv_columns(r.joints).size(), 7u + r.joints.size());
}

TEST(CsvMotion, RoundTripEqualsTheMotionToThePrintedPrecision) {
  const Hrp2& r = Hrp2::instance();
  const Eigen::MatrixXd q = random_motion(r.model, 50, 2);
  const std::string text = io::format_csv_motion(r.model, q, r.joints, "m.csv");
  expect_same_motion(r.model, q, io::parse_csv_motion(text, "m.csv", r.model, r.joints));
}

TEST(CsvMotion, QuaternionSignIsContinuousBetweenRows) {
  const Hrp2& r = Hrp2::instance();
  // A base turning about z by 3.5 rad in 0.1 rad steps: as rotation matrices the quaternion's sign is free,
  // and Eigen's conversion flips w's sign past pi. Stored with alternating signs on top.
  const int n = 36;
  Eigen::MatrixXd q(r.model.nq, n);
  const Eigen::VectorXd joints = Eigen::VectorXd::Zero(r.model.nj);
  for (int k = 0; k < n; ++k) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.1 * k, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    q.col(k) = model::configuration(r.model, spatial::SE3(R, Eigen::Vector3d::Zero()), joints);
  }
  const std::string text = io::format_csv_motion(r.model, q, r.joints, "m.csv");
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(n + 1));
  for (int k = 2; k <= n; ++k) {
    const auto a = numbers_of(lines[static_cast<std::size_t>(k - 1)]),
               b = numbers_of(lines[static_cast<std::size_t>(k)]);
    const double dot = a[3] * b[3] + a[4] * b[4] + a[5] * b[5] + a[6] * b[6];
    // Consecutive orientations 0.1 rad apart: cos(0.05) = 0.99875 with continuous signs, -0.99875 otherwise.
    EXPECT_GT(dot, 0.99) << "rows " << k - 1 << " and " << k;
  }
  expect_same_motion(r.model, q, io::parse_csv_motion(text, "m.csv", r.model, r.joints));
}

TEST(CsvMotion, HeaderlessFilesAreReadInTheConventionsOrder) {
  const Hrp2& r = Hrp2::instance();
  const Eigen::MatrixXd q = random_motion(r.model, 5, 3);
  const std::string text = io::format_csv_motion(r.model, q, r.joints, "m.csv");
  const std::string rows = text.substr(text.find('\n') + 1);
  expect_same_motion(r.model, q, io::parse_csv_motion(rows, "m.csv", r.model, r.joints));
  // CRLF, blanks around fields and blank lines, as spreadsheets and numpy write them.
  std::string loose;
  for (const auto& line : lines_of(rows)) {
    std::string spaced;
    for (char c : line) spaced += c == ',' ? std::string(" , ") : std::string(1, c);
    loose += spaced + "\r\n\r\n";
  }
  expect_same_motion(r.model, q, io::parse_csv_motion(loose, "m.csv", r.model, r.joints));
}

TEST(CsvMotion, HeaderColumnsAreFoundByName) {
  const Hrp2& r = Hrp2::instance();
  const Eigen::MatrixXd q = random_motion(r.model, 4, 4);
  const auto lines = lines_of(io::format_csv_motion(r.model, q, r.joints, "m.csv"));
  // The columns reversed: header and rows alike.
  std::string reversed;
  for (const auto& line : lines) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    for (std::size_t c = fields.size(); c-- > 0;) reversed += fields[c] + (c > 0 ? "," : "\n");
  }
  expect_same_motion(r.model, q, io::parse_csv_motion(reversed, "m.csv", r.model, r.joints));
}

std::string header_with(const std::vector<std::string>& columns) {
  std::string text;
  for (std::size_t c = 0; c < columns.size(); ++c) text += (c > 0 ? "," : "") + columns[c];
  return text + "\n";
}

TEST(CsvMotion, BadHeadersAreOneLineErrorsNamingFileLineAndColumn) {
  const Hrp2& r = Hrp2::instance();
  std::vector<std::string> columns = io::csv_columns(r.joints);

  std::vector<std::string> unknown = columns;
  unknown[9] = "NOT_A_JOINT";
  const std::string unknown_error = error_of(header_with(unknown));
  EXPECT_EQ(unknown_error.rfind("m.csv:line 1: column 10: unknown column 'NOT_A_JOINT'; expected base_x", 0),
            0u)
      << unknown_error;
  EXPECT_NE(unknown_error.find("the robot's 30 joint names"), std::string::npos) << unknown_error;

  std::vector<std::string> repeated = columns;
  repeated[12] = repeated[8];
  const std::string repeated_error = error_of(header_with(repeated));
  EXPECT_EQ(repeated_error,
            "m.csv:line 1: column 13: '" + columns[8] + "' repeats column 9; each column may appear once")
      << repeated_error;

  std::vector<std::string> missing = columns;
  missing.erase(missing.begin() + 20);
  const std::string missing_error = error_of(header_with(missing));
  EXPECT_EQ(missing_error, "m.csv:line 1: missing column '" + columns[20] +
                               "' (the header names 36); expected the 7 base columns and every one of the "
                               "robot's 30 joints")
      << missing_error;

  std::vector<std::string> no_base = columns;
  no_base.erase(no_base.begin() + 6);  // base_qw
  EXPECT_NE(error_of(header_with(no_base)).find("missing column 'base_qw'"), std::string::npos);

  for (const std::string& e : {unknown_error, repeated_error, missing_error})
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(CsvMotion, BadRowsNameTheLineAndColumn) {
  const Hrp2& r = Hrp2::instance();
  const std::string text = io::format_csv_motion(r.model, random_motion(r.model, 3, 5), r.joints, "m.csv");
  const auto lines = lines_of(text);
  const std::string rows = text.substr(text.find('\n') + 1);

  // Headerless with a wrong count: what was expected.
  const std::string short_row = lines[1].substr(0, lines[1].rfind(','));
  EXPECT_EQ(
      error_of(short_row + "\n"),
      "m.csv:line 1: expected 37 comma-separated values (base x y z, quaternion x y z w, 30 joint angles "
      "in the robot's joint order), found 36 (a file without a header row)");
  // A later row shorter than the header.
  EXPECT_EQ(error_of(lines[0] + "\n" + lines[1] + "\n" + short_row + "\n"),
            "m.csv:line 3: expected 37 values, as the header on line 1 names, found 36");
  // A field that is not a number, named by its column.
  std::string bad = lines[1];
  bad.replace(bad.find(',', bad.find(',') + 1) + 1, 0, "x");  // "x" before base_z's number
  EXPECT_EQ(error_of(lines[0] + "\n" + bad + "\n")
                .rfind("m.csv:line 2: column 3 (base_z): expected a number, found 'x", 0),
            0u)
      << error_of(lines[0] + "\n" + bad + "\n");
  // Non-finite values.
  std::string nan_row = "0,0,0.6,0,0,0,1";
  for (int j = 0; j < r.model.nj; ++j) nan_row += j == 4 ? ",nan" : ",0";
  EXPECT_EQ(error_of(nan_row + "\n"),
            "m.csv:line 1: column 12 (" + r.joints[4] + "): expected a finite number, found 'nan'");
  // No rows at all.
  EXPECT_EQ(error_of(lines[0] + "\n").rfind("m.csv: no rows; expected 37 comma-separated values", 0), 0u);
  EXPECT_EQ(error_of("").rfind("m.csv: no rows", 0), 0u);
}

std::string row_with_quaternion(const Hrp2& r, double x, double y, double z, double w) {
  std::ostringstream row;
  row.precision(17);
  row << "0.1,0.2,0.6," << x << "," << y << "," << z << "," << w;
  for (int j = 0; j < r.model.nj; ++j) row << ",0";
  return row.str() + "\n";
}

TEST(CsvMotion, QuaternionsNearUnitAreNormalisedOthersRefused) {
  const Hrp2& r = Hrp2::instance();
  // Norm 1.0005 (a 4-digit writer's worst case is 5e-4): normalised, the rotation of the unit quaternion.
  const double s = 1.0005;
  const Eigen::Quaterniond unit = Eigen::Quaterniond(0.9, 0.1, -0.3, 0.2).normalized();
  const Eigen::MatrixXd q =
      io::parse_csv_motion(row_with_quaternion(r, s * unit.x(), s * unit.y(), s * unit.z(), s * unit.w()),
                           "m.csv", r.model, r.joints);
  EXPECT_LT((model::base_pose(r.model, q.col(0)).R - unit.toRotationMatrix()).cwiseAbs().maxCoeff(), 4e-15);
  EXPECT_NEAR(model::base_quaternion(q.col(0)).norm(), 1.0, 1e-15);
  // Norm 1.01: a wrong column, not a rounding.
  const std::string error = error_of(row_with_quaternion(r, 0, 0, 0, 1.01));
  EXPECT_EQ(
      error,
      "m.csv:line 1: the base quaternion (base_qx, base_qy, base_qz, base_qw) has norm 1.01; expected a "
      "unit quaternion x y z w (norm within 0.001 of 1)");
  EXPECT_NE(error_of(row_with_quaternion(r, 0, 0, 0, 0)).find("has norm 0;"), std::string::npos);
}

TEST(CsvMotion, NonFiniteValuesAreNotWritten) {
  const Hrp2& r = Hrp2::instance();
  Eigen::MatrixXd q = random_motion(r.model, 3, 6);
  q(r.model.idx_q(2), 1) = std::numeric_limits<double>::quiet_NaN();
  try {
    io::format_csv_motion(r.model, q, r.joints, "out.csv");
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "out.csv: row 2, column 10 (" + r.joints[2] + ") is NaN; refusing to write it");
  }
}

TEST(CsvMotion, IsCsvMotionByExtension) {
  EXPECT_TRUE(io::is_csv_motion("out/x.csv"));
  EXPECT_TRUE(io::is_csv_motion("X.CSV"));
  EXPECT_FALSE(io::is_csv_motion("x.pos"));
  EXPECT_FALSE(io::is_csv_motion("x.csv.pos"));
  EXPECT_FALSE(io::is_csv_motion("csv"));
}

}  // namespace
