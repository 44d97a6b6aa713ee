// The columns of a robot's .pos file, from its description (docs/robot-description.md): the joints in
// `joint_order`, optionally followed by the description's `extra_columns` (HRP-2: the 10 hand-mechanism
// values of the 40-column LAAS model). The .pos readers and writers take one, so that no joint name or
// column count of a robot is written in io/.
#pragma once

#include <string>
#include <vector>

#include "mimic/model/robot_description.hpp"

namespace mimic::io {

struct PosLayout {
  std::vector<std::string> joints;  // the joint columns, in file order (named in errors)
  std::vector<std::string> extra;   // the columns after the joints in a wide file (not model joints)

  static PosLayout of(const model::RobotDescription& description);

  int joint_columns() const { return static_cast<int>(joints.size()); }
  int wide_columns() const { return static_cast<int>(joints.size() + extra.size()); }
  // Whether a file may have `columns` values per row: the joints alone, or the joints and the extras.
  bool accepts(int columns) const;
  // The accepted column counts for messages, "30 or 40" (HRP-2), or "30" without extra columns.
  std::string choices() const;
};

// The layout of the default robot (model::default_robot_description(), HRP-2).
const PosLayout& default_pos_layout();

}  // namespace mimic::io
