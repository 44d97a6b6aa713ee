// A motion as CSV in the Unitree / LAFAN1 convention that RL pipelines read (Unitree's retargeted LAFAN1
// data, "legged_gym"-style loaders): one row per frame, comma-separated,
//
//   base_x,base_y,base_z,base_qx,base_qy,base_qz,base_qw,<joint 1>,...,<joint nj>
//
// base position in the world (m), base orientation as a unit quaternion x y z w (the model's own q
// layout, so a row is the configuration q), then the joint angles (rad) in the robot's joint order (the
// description's `joint_order`, which is the Model's order). A CSV carries no time: the caller gives the
// rate (a row k is at t = k / rate).
//
// Written with a header row naming the columns and numbers in their shortest round-trip text
// (core::append_number), the quaternion's sign continuous from one row to the next (q and -q are the same
// orientation; interpolating loaders would otherwise turn the base the long way round). Read with the
// header (columns found by name, in any order) or without one, as Unitree's published files are (then the
// columns must be exactly the order above).
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/model/model.hpp"

namespace mimic::io {

// The base columns of every row, before the joints.
inline constexpr int kCsvBaseColumns = 7;

// A quaternion whose norm is within this of 1 is normalised on reading; further off is an InputError.
// Writers that print 4 to 6 significant digits (or float16 / float32 tools) leave norms 1 +- 5e-4 at
// worst; a norm off by more is no rounding of a unit quaternion but a wrong column (Euler angles, a
// position, a w-first file with another value in front).
inline constexpr double kCsvQuaternionNormTolerance = 1e-3;

// The rates a CSV motion may be read or written at (--rate, the job's csv_rate), Hz: below 1 Hz a file is
// a list of key poses, not a sampled motion; 10 kHz is ten times the fastest joint controller of a humanoid
// (HRP-2 200 Hz, Unitree's low-level loop 500 Hz) and already 50 times the rows of a 200 Hz .pos.
inline constexpr double kCsvMinRate = 1.0;
inline constexpr double kCsvMaxRate = 10000.0;

// Whether `path` names a CSV motion (extension .csv, any case). Commands dispatch on it: a .csv is this
// format, anything else the hrpsys files (motion_files.hpp).
bool is_csv_motion(const std::filesystem::path& path);

// The header: "base_x", ..., "base_qw", then `joints`.
std::vector<std::string> csv_columns(std::span<const std::string> joints);

// The CSV text of configurations q (model.nq x N, model layout, free-flyer base): the header row, then a
// row per column of q. `joints` names the model's joints in model order (size model.nj, else
// std::invalid_argument). The quaternion is normalised and its sign flipped where needed so that
// consecutive rows have a non-negative dot product. A non-finite value is an OutputError naming `file`,
// the row and the column (nothing is written).
std::string format_csv_motion(const model::Model& model, const Eigen::MatrixXd& q,
                              std::span<const std::string> joints, const std::string& file);

// CSV text -> configurations q (model.nq x N, model layout, unit quaternions). The first non-blank line
// is a header when its first field is not a number: every column must then be a base column or one of
// `joints`, each exactly once (an unknown, repeated or missing column is an InputError "file:line 1:
// column C: ..."). Without a header a row must have 7 + nj fields in the order above. Every row must have
// as many fields as the first; blank lines, CRLF and blanks around fields are accepted; a field that is
// not a finite number within +-1e6, or a quaternion whose norm is off 1 by more than
// kCsvQuaternionNormTolerance, is an InputError "file:line N: column C (name): ...". No rows is an error.
Eigen::MatrixXd parse_csv_motion(std::string_view text, const std::string& file, const model::Model& model,
                                 std::span<const std::string> joints);

// parse_csv_motion() of the file at `path` (core::read_text_file: a byte-order mark is dropped).
Eigen::MatrixXd read_csv_motion(const std::filesystem::path& path, const model::Model& model,
                                std::span<const std::string> joints);

}  // namespace mimic::io
