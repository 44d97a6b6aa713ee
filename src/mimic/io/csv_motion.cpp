#include "mimic/io/csv_motion.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/spatial/types.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

constexpr std::array<const char*, kCsvBaseColumns> kBaseColumns = {"base_x",  "base_y",  "base_z", "base_qx",
                                                                   "base_qy", "base_qz", "base_qw"};

// As in the .pos reader (sample_table.cpp): no pose has a coordinate beyond 1000 km or an angle beyond
// 1e6 rad; such a value is a corrupt file, refused with its line.
constexpr double kMaxMagnitude = 1.0e6;

std::string_view trimmed(std::string_view field) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (!field.empty() && blank(field.front())) field.remove_prefix(1);
  while (!field.empty() && blank(field.back())) field.remove_suffix(1);
  return field;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(trimmed(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

std::string token_text(std::string_view token) { return "'" + core::escaped_for_message(token, 40) + "'"; }

void check_joint_names(const model::Model& model, std::span<const std::string> joints) {
  if (std::ssize(joints) != model.nj || model.nq != kCsvBaseColumns + model.nj) {
    throw std::invalid_argument("CSV motion: expected a free-flyer model and one name per joint (" +
                                std::to_string(model.nj) + "), found " + std::to_string(joints.size()) +
                                " names");
  }
}

// Reads the rows of one file into configurations q.
class CsvReader {
 public:
  CsvReader(const std::string& file, const model::Model& model, std::span<const std::string> joints)
      : file_(file), model_(model), names_(csv_columns(joints)) {}

  void parse_line(std::string_view line, int line_number) {
    line_ = line_number;
    if (trimmed(line).empty()) return;
    const auto fields = split_fields(line);
    if (rows_of_columns_.empty()) {
      if (core::parse_number(fields.front()).status == core::NumberStatus::kNotANumber) {
        read_header(fields);
        return;
      }
      headerless(fields.size());
    }
    read_row(fields);
  }

  Eigen::MatrixXd finish() {
    if (samples_.empty()) {
      fail_file("no rows; expected " + expected_row() + " per line");
    }
    Eigen::MatrixXd q(model_.nq, std::ssize(samples_));
    for (Eigen::Index k = 0; k < q.cols(); ++k) q.col(k) = samples_[static_cast<std::size_t>(k)];
    return q;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(input_error_message(file_, "line " + std::to_string(line_), what));
  }
  [[noreturn]] void fail_file(const std::string& what) const {
    throw InputError(input_error_message(file_, "", what));
  }

  std::string expected_row() const {
    return std::to_string(names_.size()) + " comma-separated values (base x y z, quaternion x y z w, " +
           std::to_string(model_.nj) + " joint angles in the robot's joint order)";
  }

  void read_header(const std::vector<std::string_view>& fields) {
    rows_of_columns_.assign(fields.size(), -1);
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const auto it = std::find(names_.begin(), names_.end(), fields[c]);
      const std::string column = "column " + std::to_string(c + 1);
      if (it == names_.end()) {
        fail(column + ": unknown column " + token_text(fields[c]) +
             "; expected base_x, base_y, base_z, base_qx, base_qy, base_qz, base_qw and the robot's " +
             std::to_string(model_.nj) + " joint names");
      }
      const int row = static_cast<int>(it - names_.begin());
      const auto earlier = std::find(rows_of_columns_.begin(), rows_of_columns_.end(), row);
      if (earlier != rows_of_columns_.end()) {
        fail(column + ": " + token_text(fields[c]) + " repeats column " +
             std::to_string(earlier - rows_of_columns_.begin() + 1) + "; each column may appear once");
      }
      rows_of_columns_[c] = row;
    }
    for (std::size_t row = 0; row < names_.size(); ++row) {
      if (std::find(rows_of_columns_.begin(), rows_of_columns_.end(), static_cast<int>(row)) ==
          rows_of_columns_.end()) {
        fail("missing column " + token_text(names_[row]) + " (the header names " +
             std::to_string(fields.size()) + "); expected the 7 base columns and every one of the robot's " +
             std::to_string(model_.nj) + " joints");
      }
    }
    header_line_ = line_;
  }

  void headerless(std::size_t count) {
    if (count != names_.size()) {
      fail("expected " + expected_row() + ", found " + std::to_string(count) +
           " (a file without a header row)");
    }
    rows_of_columns_.resize(names_.size());
    for (std::size_t c = 0; c < names_.size(); ++c) rows_of_columns_[c] = static_cast<int>(c);
  }

  void read_row(const std::vector<std::string_view>& fields) {
    if (fields.size() != rows_of_columns_.size()) {
      fail("expected " + std::to_string(rows_of_columns_.size()) + " values, as " +
           (header_line_ ? "the header on line " + std::to_string(header_line_) + " names"
                         : std::string("on the first row")) +
           ", found " + std::to_string(fields.size()));
    }
    Eigen::VectorXd values(std::ssize(names_));  // in the order of names_
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const int index = rows_of_columns_[c];
      values(index) = parse_field(fields[c], c, index);
    }
    const Eigen::Vector4d xyzw = values.segment<4>(3);
    const double norm = xyzw.norm();
    if (!(std::abs(norm - 1.0) <= kCsvQuaternionNormTolerance)) {
      fail("the base quaternion (base_qx, base_qy, base_qz, base_qw) has norm " + core::format_number(norm) +
           "; expected a unit quaternion x y z w (norm within " +
           core::format_number(kCsvQuaternionNormTolerance) + " of 1)");
    }
    const spatial::Quat quaternion(xyzw(3) / norm, xyzw(0) / norm, xyzw(1) / norm, xyzw(2) / norm);
    const spatial::SE3 base(quaternion.toRotationMatrix(), values.head<3>());
    samples_.push_back(model::configuration(model_, base, values.tail(model_.nj)));
  }

  double parse_field(std::string_view token, std::size_t column, int row) const {
    const std::string field =
        "column " + std::to_string(column + 1) + " (" + names_[static_cast<std::size_t>(row)] + ")";
    const auto parsed = core::parse_number(token);
    switch (parsed.status) {
      case core::NumberStatus::kOk:
        if (!(std::abs(parsed.value) <= kMaxMagnitude)) {
          fail(field + ": expected a number within +-" + core::format_number(kMaxMagnitude) + ", found " +
               token_text(token));
        }
        return parsed.value;
      case core::NumberStatus::kNonFinite:
        fail(field + ": expected a finite number, found " + token_text(token));
      case core::NumberStatus::kOverflow:
        fail(field + ": expected a number within the range of a double, found " + token_text(token));
      case core::NumberStatus::kNotANumber:
        break;
    }
    fail(
        field + ": expected a number, found " + token_text(token) +
        (samples_.empty() && header_line_ == 0 ? "" : std::string(" (only the first line may be a header)")));
  }

  const std::string& file_;
  const model::Model& model_;
  std::vector<std::string> names_;    // the columns in the convention's order: base, then the joints
  std::vector<int> rows_of_columns_;  // per file column, its index in names_; empty until the first line
  std::vector<Eigen::VectorXd> samples_;
  int header_line_ = 0;  // 0: no header
  int line_ = 0;
};

}  // namespace

bool is_csv_motion(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".csv";
}

std::vector<std::string> csv_columns(std::span<const std::string> joints) {
  std::vector<std::string> columns(kBaseColumns.begin(), kBaseColumns.end());
  columns.insert(columns.end(), joints.begin(), joints.end());
  return columns;
}

std::string format_csv_motion(const model::Model& model, const Eigen::MatrixXd& q,
                              std::span<const std::string> joints, const std::string& file) {
  check_joint_names(model, joints);
  if (q.rows() != model.nq) {
    throw std::invalid_argument(file + ": expected " + std::to_string(model.nq) +
                                " configuration rows, found " + std::to_string(q.rows()));
  }
  const std::vector<std::string> names = csv_columns(joints);
  std::string text;
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c > 0) text += ',';
    text += names[c];
  }
  text += '\n';
  Eigen::Vector4d previous = Eigen::Vector4d::Zero();
  Eigen::VectorXd row(std::ssize(names));  // in the order of names
  for (Eigen::Index k = 0; k < q.cols(); ++k) {
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
      if (!std::isfinite(q(i, k))) {
        throw OutputError(file + ": row " + std::to_string(k + 1) + ", column " + std::to_string(i + 1) +
                          " (" + names[static_cast<std::size_t>(i)] + ") is " +
                          (std::isnan(q(i, k)) ? "NaN" : "infinite") + "; refusing to write it");
      }
    }
    // The stored quaternion, normalised (not rebuilt from a rotation matrix, which would lose the last
    // bits), with the sign of the previous row's.
    const spatial::Quat quaternion = model::base_quaternion(q.col(k)).normalized();
    Eigen::Vector4d xyzw(quaternion.x(), quaternion.y(), quaternion.z(), quaternion.w());
    if (xyzw.dot(previous) < 0.0) xyzw = -xyzw;
    previous = xyzw;
    row << model::base_pose(model, q.col(k)).translation(), xyzw, q.col(k).tail(model.nj);
    for (Eigen::Index i = 0; i < row.size(); ++i) {
      if (i > 0) text += ',';
      core::append_number(text, row(i));
    }
    text += '\n';
  }
  return text;
}

Eigen::MatrixXd parse_csv_motion(std::string_view text, const std::string& file, const model::Model& model,
                                 std::span<const std::string> joints) {
  check_joint_names(model, joints);
  text = core::without_utf8_bom(text);
  CsvReader reader(file, model, joints);
  int line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    reader.parse_line(text.substr(start, end - start), ++line_number);
    start = end + 1;
  }
  return reader.finish();
}

Eigen::MatrixXd read_csv_motion(const fs::path& path, const model::Model& model,
                                std::span<const std::string> joints) {
  return parse_csv_motion(core::read_text_file(path.string()), path.string(), model, joints);
}

}  // namespace mimic::io
