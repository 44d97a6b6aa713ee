// OpenHRP / hrpsys sequence files (../shared/reference/hrp2.md section 6): one sample per line, the time
// in seconds followed by a fixed number of values. hrpsys's SequencePlayer plays X.pos, X.zmp, and X.hip
// or, if there is no X.hip, X.waist, moving to each sample over the time since the previous one.
//
//   .pos    time + 30 joint angles (rad, OpenHRP order), or 40: the 30 followed by 10 hand-mechanism
//           values (RHAND_JOINT0-4, LHAND_JOINT0-4 of the LAAS HRP2JRL model)
//   .waist  time x y z roll pitch yaw: the waist (BODY) pose in the world (m, rad)
//   .hip    time roll pitch yaw: the waist orientation in the world (rad)
//   .zmp    time x y z: the ZMP in the waist (BODY) frame (m), so z is about -0.65 for HRP-2 standing
//
// Angles are roll-pitch-yaw with R = Rz(yaw) Ry(pitch) Rx(roll) (see spatial/rpy.hpp). Every struct keeps one
// sample per row. Readers throw InputError "file:line N: ..."; writers replace the file atomically and
// throw OutputError for values hrpsys cannot play (NaN, non-increasing time, a 2-pi jump in an angle).
#pragma once

#include <Eigen/Core>
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mimic::io {

inline constexpr int kJointCount = 30;       // HRP-2, OpenHRP order (docs/CONTRACTS.md)
inline constexpr int kHandColumnCount = 10;  // hand mechanism of the 40-column LAAS model (hrp2.md s. 6)
inline constexpr double kHrp2SamplePeriod = 0.005;  // s, 200 Hz (hrp2.md s. 6)

struct PosSequence {
  std::vector<double> times;  // s, strictly increasing
  Eigen::MatrixXd angles;     // samples x 30, rad, OpenHRP joint order: row k is .pos line k without time
  Eigen::MatrixXd hands;      // samples x 10 hand values read from a 40-column file; samples x 0 otherwise
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

// Which .pos layout to accept when reading.
enum class PosColumns { kAuto, k30, k40 };

struct PosWriteOptions {
  int columns = kJointCount;  // 30, or 40 for controllers whose model has the hand-mechanism joints
  // The 10 hand values of a 40-column file when the sequence carries none (PosSequence::hands empty).
  std::array<double, kHandColumnCount> hand_values{};
};

// Reading. `file` names the source in error messages; the parse_* forms read text already in memory.
PosSequence read_pos(const std::filesystem::path& path, PosColumns columns = PosColumns::kAuto);
WaistSequence read_waist(const std::filesystem::path& path);
HipSequence read_hip(const std::filesystem::path& path);
ZmpSequence read_zmp(const std::filesystem::path& path);

PosSequence parse_pos(std::string_view text, const std::string& file, PosColumns columns = PosColumns::kAuto);
WaistSequence parse_waist(std::string_view text, const std::string& file);
HipSequence parse_hip(std::string_view text, const std::string& file);
ZmpSequence parse_zmp(std::string_view text, const std::string& file);

// Formatting: the exact file text, one "\n"-terminated line per sample, numbers in their shortest
// round-trip form and times on a nanosecond grid ("0.005"). `file` names the target in errors.
// Throws std::invalid_argument when the matrix shapes disagree with the times (a programming error) and
// OutputError when a value cannot be played (NaN, infinity, non-increasing time, an angle jumping by
// more than pi between samples: hrpsys interpolates each angle linearly, see spatial::unwrap_angles()).
std::string format_pos(const PosSequence& pos, const std::string& file, const PosWriteOptions& options = {});
std::string format_waist(const WaistSequence& waist, const std::string& file);
std::string format_hip(const HipSequence& hip, const std::string& file);
std::string format_zmp(const ZmpSequence& zmp, const std::string& file);

// Writing one file atomically (a failure leaves the previous file, or none). To write X.pos, X.waist
// and X.zmp together use write_motion() (motion_files.hpp).
void write_pos(const std::filesystem::path& path, const PosSequence& pos,
               const PosWriteOptions& options = {});
void write_waist(const std::filesystem::path& path, const WaistSequence& waist);
void write_hip(const std::filesystem::path& path, const HipSequence& hip);
void write_zmp(const std::filesystem::path& path, const ZmpSequence& zmp);

}  // namespace mimic::io
