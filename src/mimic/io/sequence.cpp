#include "mimic/io/sequence.hpp"

#include <cmath>
#include <initializer_list>
#include <numbers>
#include <span>
#include <stdexcept>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/sample_table.hpp"

namespace mimic::io {
namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Column names used in error messages.
const std::array<std::string, 3> kXyzNames = {"x", "y", "z"};
const std::array<std::string, 3> kRpyNames = {"roll", "pitch", "yaw"};

constexpr std::array<SampleLayout, 1> kWaistLayout = {{{6, "x y z roll pitch yaw"}}};
constexpr std::array<SampleLayout, 1> kHipLayout = {{{3, "roll pitch yaw"}}};
constexpr std::array<SampleLayout, 1> kZmpLayout = {{{3, "x y z"}}};

// How errors describe a .pos row: "30 joint angles", "30 joint angles + 10 extra columns RHAND_JOINT0 ..
// LHAND_JOINT4".
std::string joints_description(const PosLayout& layout) {
  return std::to_string(layout.joint_columns()) + " joint angles";
}
std::string wide_description(const PosLayout& layout) {
  std::string text = joints_description(layout) + " + " + std::to_string(layout.extra.size()) +
                     (layout.extra.size() == 1 ? " extra column " : " extra columns ") + layout.extra.front();
  if (layout.extra.size() > 1) text += " .. " + layout.extra.back();
  return text;
}

Eigen::Map<const RowMajorMatrix> values_of(const SampleTable& table) {
  return {table.values.data(), static_cast<Eigen::Index>(table.times.size()), table.columns};
}

// One block of columns of a file being written.
struct ColumnGroup {
  const Eigen::MatrixXd& values;
  std::span<const std::string> names;
  bool wrapped_angles;  // hrpsys interpolates these linearly, so a 2-pi jump would spin the robot
};

void check_shapes(const std::vector<double>& times, std::initializer_list<ColumnGroup> groups,
                  const std::string& file) {
  for (const auto& group : groups) {
    if (group.values.rows() != static_cast<Eigen::Index>(times.size()) ||
        group.values.cols() != static_cast<Eigen::Index>(group.names.size())) {
      throw std::invalid_argument(file + ": a " + std::to_string(group.values.rows()) + " x " +
                                  std::to_string(group.values.cols()) + " matrix where " +
                                  std::to_string(times.size()) + " x " + std::to_string(group.names.size()) +
                                  " was expected");
    }
  }
}

std::string sample_place(const std::vector<double>& times, std::size_t k) {
  return "sample " + std::to_string(k + 1) + " (t = " + core::format_number(times[k]) + " s)";
}

void check_playable(const std::vector<double>& times, std::initializer_list<ColumnGroup> groups,
                    const std::string& file) {
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) {
      throw OutputError(file + ": sample " + std::to_string(k + 1) + ": the time is not finite");
    }
    if (k > 0 && !(times[k] > times[k - 1])) {
      throw OutputError(file + ": " + sample_place(times, k) + " is not after the previous sample (t = " +
                        core::format_number(times[k - 1]) + " s); times must increase strictly");
    }
    // The nanosecond grid of core::append_time() must not merge two samples.
    if (k > 0 && std::round(times[k] * 1e9) <= std::round(times[k - 1] * 1e9)) {
      throw OutputError(file + ": " + sample_place(times, k) +
                        " is less than a nanosecond after the previous");
    }
    for (const auto& group : groups) {
      for (Eigen::Index c = 0; c < group.values.cols(); ++c) {
        const double v = group.values(static_cast<Eigen::Index>(k), c);
        if (!std::isfinite(v)) {
          throw OutputError(file + ": " + sample_place(times, k) + ": " + group.names[c] + " is " +
                            (std::isnan(v) ? "NaN" : "infinite") +
                            "; refusing to write a value hrpsys cannot read");
        }
        if (group.wrapped_angles && k > 0) {
          const double jump = v - group.values(static_cast<Eigen::Index>(k) - 1, c);
          if (std::abs(jump) > std::numbers::pi) {
            throw OutputError(file + ": " + sample_place(times, k) + ": " + group.names[c] + " jumps by " +
                              core::format_number(jump) +
                              " rad; hrpsys interpolates each angle linearly, so unwrap the angles first "
                              "(mimic::spatial::unwrap_angles)");
          }
        }
      }
    }
  }
}

std::string format_samples(const std::vector<double>& times, std::initializer_list<ColumnGroup> groups,
                           const std::string& file) {
  if (times.empty()) throw OutputError(file + ": no samples to write");
  check_shapes(times, groups, file);
  check_playable(times, groups, file);
  std::string text;
  std::size_t columns = 1;
  for (const auto& group : groups) columns += group.names.size();
  text.reserve(times.size() * columns * 12);
  for (std::size_t k = 0; k < times.size(); ++k) {
    core::append_time(text, times[k]);
    for (const auto& group : groups) {
      for (Eigen::Index c = 0; c < group.values.cols(); ++c) {
        text += ' ';
        core::append_number(text, group.values(static_cast<Eigen::Index>(k), c));
      }
    }
    text += '\n';
  }
  return text;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path, [&](std::ostream& out) { out.write(text.data(), std::ssize(text)); });
}

}  // namespace

PosWriteOptions PosWriteOptions::with_columns(const PosLayout& layout, int columns) {
  if (!layout.accepts(columns)) {
    throw std::invalid_argument(".pos files of this robot have " + layout.choices() + " columns, not " +
                                std::to_string(columns));
  }
  PosWriteOptions options;
  options.wide = columns != layout.joint_columns();
  return options;
}

PosSequence parse_pos(std::string_view text, const std::string& file, PosColumns columns,
                      const PosLayout& layout) {
  // The descriptions outlive the parse: SampleLayout holds a view of them.
  const std::string narrow_text = joints_description(layout);
  const std::string wide_text = layout.extra.empty() ? std::string() : wide_description(layout);
  std::vector<SampleLayout> layouts;
  if (columns != PosColumns::kWide) layouts.push_back({layout.joint_columns(), narrow_text});
  if (columns != PosColumns::kJoints) {
    if (layout.extra.empty() && columns == PosColumns::kWide)
      throw std::invalid_argument(file + ": this robot's .pos has no extra columns");
    if (!layout.extra.empty()) layouts.push_back({layout.wide_columns(), wide_text});
  }
  auto table = parse_sample_table(text, file, layouts);
  const auto values = values_of(table);
  PosSequence pos;
  pos.angles = values.leftCols(layout.joint_columns());
  pos.extra = values.rightCols(table.columns - layout.joint_columns());
  pos.times = std::move(table.times);
  return pos;
}

WaistSequence parse_waist(std::string_view text, const std::string& file) {
  auto table = parse_sample_table(text, file, kWaistLayout);
  const auto values = values_of(table);
  WaistSequence waist;
  waist.position = values.leftCols(3);
  waist.rpy = values.rightCols(3);
  waist.times = std::move(table.times);
  return waist;
}

HipSequence parse_hip(std::string_view text, const std::string& file) {
  auto table = parse_sample_table(text, file, kHipLayout);
  HipSequence hip;
  hip.rpy = values_of(table);
  hip.times = std::move(table.times);
  return hip;
}

ZmpSequence parse_zmp(std::string_view text, const std::string& file) {
  auto table = parse_sample_table(text, file, kZmpLayout);
  ZmpSequence zmp;
  zmp.zmp = values_of(table);
  zmp.times = std::move(table.times);
  return zmp;
}

PosSequence read_pos(const std::filesystem::path& path, PosColumns columns, const PosLayout& layout) {
  return parse_pos(core::read_text_file(path.string()), path.string(), columns, layout);
}
WaistSequence read_waist(const std::filesystem::path& path) {
  return parse_waist(core::read_text_file(path.string()), path.string());
}
HipSequence read_hip(const std::filesystem::path& path) {
  return parse_hip(core::read_text_file(path.string()), path.string());
}
ZmpSequence read_zmp(const std::filesystem::path& path) {
  return parse_zmp(core::read_text_file(path.string()), path.string());
}

std::string format_pos(const PosSequence& pos, const std::string& file, const PosWriteOptions& options,
                       const PosLayout& layout) {
  const ColumnGroup joints{pos.angles, layout.joints, false};
  if (!options.wide) return format_samples(pos.times, {joints}, file);
  if (pos.extra.cols() != 0)
    return format_samples(pos.times, {joints, {pos.extra, layout.extra, false}}, file);
  const auto count = static_cast<Eigen::Index>(layout.extra.size());
  if (!options.extra_values.empty() && std::ssize(options.extra_values) != count) {
    throw std::invalid_argument(file + ": " + std::to_string(options.extra_values.size()) +
                                " extra values for " + std::to_string(count) + " extra columns");
  }
  const Eigen::MatrixXd extra =
      options.extra_values.empty()
          ? Eigen::MatrixXd::Zero(pos.size(), count)
          : Eigen::MatrixXd(Eigen::Map<const Eigen::RowVectorXd>(options.extra_values.data(), count)
                                .replicate(pos.size(), 1));
  return format_samples(pos.times, {joints, {extra, layout.extra, false}}, file);
}

std::string format_waist(const WaistSequence& waist, const std::string& file) {
  return format_samples(waist.times, {{waist.position, kXyzNames, false}, {waist.rpy, kRpyNames, true}},
                        file);
}

std::string format_hip(const HipSequence& hip, const std::string& file) {
  return format_samples(hip.times, {{hip.rpy, kRpyNames, true}}, file);
}

std::string format_zmp(const ZmpSequence& zmp, const std::string& file) {
  return format_samples(zmp.times, {{zmp.zmp, kXyzNames, false}}, file);
}

void write_pos(const std::filesystem::path& path, const PosSequence& pos, const PosWriteOptions& options,
               const PosLayout& layout) {
  write_text(path, format_pos(pos, path.string(), options, layout));
}
void write_waist(const std::filesystem::path& path, const WaistSequence& waist) {
  write_text(path, format_waist(waist, path.string()));
}
void write_hip(const std::filesystem::path& path, const HipSequence& hip) {
  write_text(path, format_hip(hip, path.string()));
}
void write_zmp(const std::filesystem::path& path, const ZmpSequence& zmp) {
  write_text(path, format_zmp(zmp, path.string()));
}

}  // namespace mimic::io
