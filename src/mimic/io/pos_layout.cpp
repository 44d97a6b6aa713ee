#include "mimic/io/pos_layout.hpp"

namespace mimic::io {

PosLayout PosLayout::of(const model::RobotDescription& description) {
  return {description.joint_order, description.extra_columns};
}

bool PosLayout::accepts(int columns) const {
  return columns == joint_columns() || (!extra.empty() && columns == wide_columns());
}

std::string PosLayout::choices() const {
  std::string text = std::to_string(joint_columns());
  if (!extra.empty()) text += " or " + std::to_string(wide_columns());
  return text;
}

const PosLayout& default_pos_layout() {
  static const PosLayout layout = PosLayout::of(model::default_robot_description());
  return layout;
}

}  // namespace mimic::io
