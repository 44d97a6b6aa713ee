// OpenHRP / hrpsys sequence files (../shared/reference/hrp2.md section 6): one sample per line, the time
// in seconds followed by a fixed number of values. hrpsys's SequencePlayer plays X.pos, X.zmp, and X.hip
// or, if there is no X.hip, X.waist, moving to each sample over the time since the previous one.
//
//   .pos    time + the robot's joint angles (rad, in its description's joint_order), optionally followed
//           by the description's extra columns (PosLayout; HRP-2: 30 joints, or 40 columns with the 10
//           hand-mechanism values RHAND_JOINT0-4, LHAND_JOINT0-4 of the LAAS HRP2JRL model)
//   .waist  time x y z roll pitch yaw: the waist (BODY) pose in the world (m, rad)
//   .hip    time roll pitch yaw: the waist orientation in the world (rad)
//   .zmp    time x y z: the ZMP in the waist (BODY) frame (m), so z is about -0.65 for HRP-2 standing
//
// Angles are roll-pitch-yaw with R = Rz(yaw) Ry(pitch) Rx(roll) (see spatial/rpy.hpp). Every struct keeps one
// sample per row. Readers throw InputError "file:line N: ..."; writers replace the file atomically and
// throw OutputError for values hrpsys cannot play (NaN, non-increasing time, a 2-pi jump in an angle).
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/io/pos_layout.hpp"

namespace mimic::io {

inline constexpr double kHrp2SamplePeriod = 0.005;  // s, 200 Hz (hrp2.md s. 6)

struct PosSequence {
  std::vector<double> times;  // s, strictly increasing
  Eigen::MatrixXd angles;     // samples x joints, rad, the layout's joint order: row k is .pos line k
  Eigen::MatrixXd extra;      // samples x the layout's extra columns read from a wide file; samples x 0 else
  Eigen::Index size() const { return static_cast<Eigen::Index>(times.size()); }
};

struct WaistSequence {
  std::vector<double> times;
  Eigen::MatrixXd position;  // samples x 3, world, m
  Eigen::MatrixXd rpy;       // samples x 3, roll pitch yaw in the world, rad
  Eigen::Index size() const { return static_cast<Eigen::Index>(times.size()); }
};

struct HipSequence {
  std::vector<double> times;
  Eigen::MatrixXd rpy;  // samples x 3, waist roll pitch yaw in the world, rad
  Eigen::Index size() const { return static_cast<Eigen::Index>(times.size()); }
};

struct ZmpSequence {
  std::vector<double> times;
  Eigen::MatrixXd zmp;  // samples x 3, in the waist (BODY) frame, m
  Eigen::Index size() const { return static_cast<Eigen::Index>(times.size()); }
};

// Which .pos columns to accept when reading: either, the joints only, or the joints and the extra columns.
enum class PosColumns { kAuto, kJoints, kWide };

struct PosWriteOptions {
  // Write the layout's extra columns after the joints (HRP-2: a 40-column file for controllers whose
  // model has the hand-mechanism joints).
  bool wide = false;
  // The extra columns' values when the sequence carries none (PosSequence::extra empty): one per extra
  // column, or empty for zeros.
  std::vector<double> extra_values;

  // The options for a file of `columns` values per row; std::invalid_argument unless layout.accepts() it.
  static PosWriteOptions with_columns(const PosLayout& layout, int columns);
};

// Reading. `file` names the source in error messages; the parse_* forms read text already in memory.
// A .pos is read in `layout` (the default robot's unless given), whose column names errors quote.
PosSequence read_pos(const std::filesystem::path& path, PosColumns columns = PosColumns::kAuto,
                     const PosLayout& layout = default_pos_layout());
WaistSequence read_waist(const std::filesystem::path& path);
HipSequence read_hip(const std::filesystem::path& path);
ZmpSequence read_zmp(const std::filesystem::path& path);

PosSequence parse_pos(std::string_view text, const std::string& file, PosColumns columns = PosColumns::kAuto,
                      const PosLayout& layout = default_pos_layout());
WaistSequence parse_waist(std::string_view text, const std::string& file);
HipSequence parse_hip(std::string_view text, const std::string& file);
ZmpSequence parse_zmp(std::string_view text, const std::string& file);

// Formatting: the exact file text, one "\n"-terminated line per sample, numbers in their shortest
// round-trip form and times on a nanosecond grid ("0.005"). `file` names the target in errors.
// Throws std::invalid_argument when the matrix shapes disagree with the times (a programming error) and
// OutputError when a value cannot be played (NaN, infinity, non-increasing time, an angle jumping by
// more than pi between samples: hrpsys interpolates each angle linearly, see spatial::unwrap_angles()).
// A .pos is written in `layout`: the sequence has its joint columns, and its extra columns or none.
std::string format_pos(const PosSequence& pos, const std::string& file, const PosWriteOptions& options = {},
                       const PosLayout& layout = default_pos_layout());
std::string format_waist(const WaistSequence& waist, const std::string& file);
std::string format_hip(const HipSequence& hip, const std::string& file);
std::string format_zmp(const ZmpSequence& zmp, const std::string& file);

// Writing one file atomically (a failure leaves the previous file, or none). To write X.pos, X.waist
// and X.zmp together use write_motion() (motion_files.hpp).
void write_pos(const std::filesystem::path& path, const PosSequence& pos, const PosWriteOptions& options = {},
               const PosLayout& layout = default_pos_layout());
void write_waist(const std::filesystem::path& path, const WaistSequence& waist);
void write_hip(const std::filesystem::path& path, const HipSequence& hip);
void write_zmp(const std::filesystem::path& path, const ZmpSequence& zmp);

}  // namespace mimic::io
